import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { defaultContainerEngine, openSandbox } from '../../src/sandbox/engine-table.js';
import { DIST } from '../helpers/cli.js';

const exists = async (id: string) =>
  dockerClient()
    .getContainer(id)
    .inspect()
    .then(() => true)
    .catch(() => false);

describe('reapOrphans', () => {
  it('removes the containers of a SIGKILLed bugbench process and keeps live ones', async () => {
    const script = `
      const { defaultContainerEngine, openSandbox } = await import(${JSON.stringify(`${DIST}/sandbox/engine-table.js`)});
      const { LABEL_RUN, ownerLabels } = await import(${JSON.stringify(`${DIST}/sandbox/owner.js`)});
      await defaultContainerEngine().createVolume('bugbench-orphan-test-' + process.pid, { [LABEL_RUN]: 'orphan-test', ...ownerLabels() });
      const sandbox = await openSandbox({ image: ${JSON.stringify(BASE_IMAGE)}, runId: 'orphan-test', volumes: { ['bugbench-orphan-test-' + process.pid]: '/shared' } });
      process.stdout.write(sandbox.id + '\\n');
      setInterval(() => {}, 1000);`;
    const child = execa('node', ['--input-type=module', '-e', script], { reject: false });
    const orphanId = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.catch(reject);
    });
    const mine = await openSandbox({ image: BASE_IMAGE, runId: 'orphan-test-live' });
    try {
      expect(await exists(orphanId)).toBe(true);
      child.kill('SIGKILL');
      await child;
      const { removed, volumes } = await defaultContainerEngine().reapOrphans();
      expect(removed).toContain(orphanId);
      // Another test file's killed process may leave a check's volume for this reaper too: only this test's are judged.
      expect(volumes.filter((v) => v.startsWith('bugbench-orphan-test-'))).toEqual([expect.stringMatching(/^bugbench-orphan-test-\d+$/)]);
      expect(removed).not.toContain(mine.id);
      expect(await exists(orphanId)).toBe(false);
      expect(await exists(mine.id)).toBe(true);
    } finally {
      await mine.remove();
    }
  });
});
