/** Issue 34, item 24: a package.json that needs Node ≥ 20 was built on Node 18 with only npm's EBADENGINE warning. */
import { describe, expect, it } from 'vitest';
import { enginesFieldProblem, nodeEnginesRange } from '../../../src/sandbox/docker-api/engines-field.js';

describe("package.json's engines field", () => {
  it('is read from package.json, or is absent', () => {
    expect(nodeEnginesRange(JSON.stringify({ engines: { node: '>=20' } }))).toBe('>=20');
    expect(nodeEnginesRange(JSON.stringify({ engines: { npm: '>=9' } }))).toBeUndefined();
    expect(nodeEnginesRange(JSON.stringify({ name: 'x' }))).toBeUndefined();
    expect(nodeEnginesRange('{ not json')).toBeUndefined();
    expect(nodeEnginesRange(undefined)).toBeUndefined();
  });

  it("says when the image's Node does not meet it, and what to do", () => {
    expect(enginesFieldProblem('>=20', 'v18.20.4')).toBe(
      "package.json's engines field needs Node >=20, but the image has Node 18.20.4: its tests may crash on load; build --from an image with such a Node",
    );
    expect(enginesFieldProblem('^18.17 || >=20', 'v18.20.4')).toBeUndefined();
    expect(enginesFieldProblem('>=16.0.0', 'v18.20.4\n')).toBeUndefined();
    expect(enginesFieldProblem('20.x', 'v22.1.0')).toMatch(/needs Node 20\.x, but the image has Node 22\.1\.0/);
    // A range semver cannot read says nothing rather than something untrue.
    expect(enginesFieldProblem('node is fine', 'v18.20.4')).toBeUndefined();
  });
});
