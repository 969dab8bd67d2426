import { describe, expect, it } from 'vitest';
import type { EngineStatus } from '../../../src/sandbox/engines.js';
import { enginesLine, imageEngines } from '../../../src/ui/images-screen.js';

const IMAGE = { tag: 'bugbench/repo-x:latest', id: 'sha256:aa', repo: 'x', commit: 'c', sizeBytes: 1 };
const engine = (name: string, ok: boolean, slots: number | null, images = [IMAGE]): EngineStatus => ({
  name,
  host: `unix:///${name}.sock`,
  ok,
  version: ok ? '20.10.24' : null,
  product: ok ? 'docker' : null,
  rootless: ok ? false : null,
  runtime: ok ? 'runc' : null,
  kind: ok ? 'Docker 20.10.24 (runc)' : null,
  cpus: ok ? 2 : null,
  slots,
  images: ok ? images : [],
  ...(ok ? {} : { detail: 'connect ENOENT' }),
});

describe('the engines on the Images screen', () => {
  it('names each engine with its version and slots, or says it does not answer', () => {
    expect(enginesLine([engine('e1', true, 1)])).toBe('engine: e1 ✓ 20.10.24, 1 slot');
    expect(enginesLine([engine('e1', true, 2), engine('e2', false, 3)])).toBe('engines: e1 ✓ 20.10.24, 2 slots · e2 ✗ not answering');
  });

  it('says which engines hold the selected image and which get a copy, only when there are several', () => {
    expect(imageEngines(IMAGE.tag, IMAGE.id, [engine('e1', true, 2)])).toBe('');
    expect(imageEngines(IMAGE.tag, IMAGE.id, [engine('e1', true, 2), engine('e2', true, 2)])).toBe(' · on e1, e2');
    // Same tag, other build: not the image the run would use.
    const older = { ...IMAGE, id: 'sha256:bb' };
    expect(imageEngines(IMAGE.tag, IMAGE.id, [engine('e1', true, 2), engine('e2', true, 2, [older]), engine('e3', false, 1)])).toBe(' · on e1; e2 gets a copy when a run starts');
  });
});
