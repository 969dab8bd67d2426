/**
 * Which engines a cluster run's tasks are given, and how a task takes them:
 * the bwrap:///DIR folders named on the submitting side travel (with their
 * slots and names), a Docker address stays, and a task given an engine it
 * cannot use fails at its start with the engine's words.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedImageFolders, taskEngines } from '../../../src/cluster/task-engines.js';
import { SetupError } from '../../../src/errors.js';
import { engineSpecs } from '../../../src/sandbox/engine-config.js';
import { nodeEngine } from '../../../src/sandbox/node-engine.js';

describe('the engines of a cluster run\'s tasks', () => {
  it('are the bwrap folders of DOCKER_HOST\'s list, with their slots and names; a Docker address stays here', () => {
    const env = { DOCKER_HOST: 'unix:///var/run/docker.sock?slots=2,bwrap:///shared/images?slots=4&name=nodes,bwrap:///scratch/more%20images' };
    const engines = taskEngines(env)!;
    expect(engines).toBe('bwrap:///shared/images?slots=4&name=nodes,bwrap:///scratch/more%20images?name=e3');
    // What the task reads back is what was named here.
    expect(engineSpecs({ DOCKER_HOST: engines })).toEqual([
      { name: 'nodes', host: 'bwrap:///shared/images', slots: 4 },
      { name: 'e3', host: 'bwrap:///scratch/more%20images', slots: undefined },
    ]);
    expect(packedImageFolders(engines)).toEqual(['/shared/images', '/scratch/more images']);
    expect(taskEngines({ DOCKER_HOST: 'unix:///var/run/docker.sock,tcp://gpu7:2375' })).toBeUndefined();
  });

  it('come from the workspace\'s bugbench.config.json as well', () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-task-engines-'));
    writeFileSync(join(home, 'bugbench.config.json'), JSON.stringify({ engines: [{ host: 'unix:///var/run/docker.sock' }, { host: 'bwrap:///shared/images', slots: 3 }] }));
    expect(taskEngines({ BUGBENCH_HOME: home })).toBe('bwrap:///shared/images?slots=3&name=e2');
    expect(taskEngines({ BUGBENCH_HOME: join(home, 'none') })).toBeUndefined();
  });
});

describe('a task given engines', () => {
  it('names each with where its images are unpacked', async () => {
    const images = mkdtempSync(join(tmpdir(), 'bugbench-task-images-'));
    const engine = await nodeEngine({ PATH: process.env.PATH, DOCKER_HOST: `bwrap://${images}?slots=2&name=nodes`, BUGBENCH_BWRAP_STATE: '/scratch/bwrap' });
    expect(engine.host).toBe(`bwrap://${images}?slots=2&name=nodes`);
    expect(engine.description).toMatch(new RegExp(`^bwrap \\S+ \\(no engine\\) at bwrap://${images}, images unpacked in /scratch/bwrap$`));
  });

  it('fails at its start when one of them cannot be used, with what is wrong', async () => {
    const named = 'bwrap:///no/such/images?slots=2';
    const failure = nodeEngine({ PATH: process.env.PATH, DOCKER_HOST: named });
    await expect(failure).rejects.toThrow(SetupError);
    await expect(failure).rejects.toThrow(`the engine this task was given (DOCKER_HOST=${named}) cannot be used here:`);
    await expect(failure).rejects.toThrow('/no/such/images of packed images does not exist');
  });
});
