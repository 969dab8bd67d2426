import { describe, expect, it } from 'vitest';
import type { EngineStatus } from '../../src/sandbox/engines.js';
import { enginesLine } from '../../src/ui/images-screen.js';

const engine = (name: string, ok: boolean, slots: number | null): EngineStatus => ({ name, host: `unix:///${name}.sock`, ok, version: ok ? '20.10' : null, cpus: ok ? 2 : null, slots, images: [], ...(ok ? {} : { detail: 'connect ENOENT' }) });

describe('the engines line of the Images screen', () => {
  it('names each engine with its slots, or says it does not answer', () => {
    expect(enginesLine([engine('local', true, 1)])).toBe('engine: local ✓ 1 slot');
    expect(enginesLine([engine('local', true, 2), engine('e2', false, 3)])).toBe('engines: local ✓ 2 slots · e2 ✗ not answering');
  });
});
