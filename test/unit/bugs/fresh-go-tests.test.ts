import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FRESH_GO_TESTS } from '../../../src/bugs/test-run.js';

const bin = mkdtempSync(join(tmpdir(), 'bugbench-fresh-go-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** GOFLAGS after the run script's line, in a bash whose PATH holds only a `go` that answers `go env GOFLAGS` with `configured` (none: no go at all). */
function goflagsAfter(env: { GOFLAGS?: string }, configured?: string): string {
  const dir = mkdtempSync(join(bin, 'path-'));
  if (configured !== undefined) {
    writeFileSync(join(dir, 'go'), `#!/bin/bash\n[ "$1 $2" = "env GOFLAGS" ] && [ -z "$GOFLAGS" ] && echo '${configured}'\n`);
    chmodSync(join(dir, 'go'), 0o755);
  }
  const script = `${FRESH_GO_TESTS}\nprintf '%s' "$GOFLAGS"`;
  return execFileSync('/bin/bash', ['-c', script], { env: { PATH: dir, ...env }, encoding: 'utf8' });
}

describe('the run script keeps go test from replaying cached results', () => {
  it('adds -count=1 where nothing sets flags, with go or without', () => {
    expect(goflagsAfter({})).toBe('-count=1');
    expect(goflagsAfter({}, '')).toBe('-count=1');
  });

  it("keeps the environment's flags and those go env -w wrote", () => {
    expect(goflagsAfter({ GOFLAGS: '-mod=vendor' })).toBe('-mod=vendor -count=1');
    expect(goflagsAfter({}, '-mod=vendor -tags=integration')).toBe('-mod=vendor -tags=integration -count=1');
    // An empty variable leaves go to its configuration, as go does.
    expect(goflagsAfter({ GOFLAGS: '' }, '-mod=mod')).toBe('-mod=mod -count=1');
  });

  it('leaves a -count the image chose', () => {
    expect(goflagsAfter({ GOFLAGS: '-count=3' })).toBe('-count=3');
    // Set in go's configuration: the variable stays unset and go keeps using it.
    expect(goflagsAfter({}, '-mod=vendor -count=2')).toBe('');
  });
});
