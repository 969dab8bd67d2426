import { describe, expect, it } from 'vitest';
import { BwrapEngine, imagesFolder } from '../../../../src/sandbox/bwrap/engine.js';
import { engineSpecs } from '../../../../src/sandbox/engine-config.js';
import { engineAt, engineTypeOf } from '../../../../src/sandbox/engine-table.js';

describe('bwrap addresses', () => {
  it('are chosen wherever a Docker address is accepted, with slots and a name', () => {
    const specs = engineSpecs({ DOCKER_HOST: 'unix:///var/run/docker.sock?slots=2,bwrap:///shared/images?slots=8&name=nodes' });
    expect(specs).toEqual([
      { name: 'e1', host: 'unix:///var/run/docker.sock', slots: 2 },
      { name: 'nodes', host: 'bwrap:///shared/images', slots: 8 },
    ]);
    expect(specs.map((s) => engineTypeOf(s.host))).toEqual(['docker-api', 'bwrap']);
    const engine = engineAt('bwrap:///shared/images');
    expect(engine).toBeInstanceOf(BwrapEngine);
    expect(engine.type).toBe('bwrap');
    expect((engine as BwrapEngine).folder).toBe('/shared/images');
  });

  it('name an absolute folder, and anything else is refused with the form to write', () => {
    expect(imagesFolder('bwrap:///scratch/my%20images')).toBe('/scratch/my images');
    expect(() => imagesFolder('bwrap://host/images')).toThrow(/write bwrap:\/\/\/absolute\/folder\/of\/packed\/images/);
  });

  it('answer ping only when the folder is there', async () => {
    await expect(engineAt('bwrap:///no/such/folder').ping(1000)).rejects.toThrow(/the folder \/no\/such\/folder of packed images does not exist/);
  });
});
