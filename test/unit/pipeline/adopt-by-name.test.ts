/**
 * Adopting an image the engine does not have (`bugbench images add
 * nosuch/img:1`, the Images screen's `a`): the hint is to pull it, since an
 * image to adopt is someone else's; building one is named for an image of
 * one's own repository.
 */
import { describe, expect, it } from 'vitest';
import { ImageNotFoundError } from '../../../src/errors.js';
import { adoptByName } from '../../../src/pipeline/adopt-by-name.js';
import type { ContainerEngine } from '../../../src/sandbox/port.js';

/** An engine that has no image at all. */
const EMPTY = { type: 'docker-api', host: 'unix:///stand-in.sock', inspectImage: async () => undefined } as Partial<ContainerEngine> as ContainerEngine;

describe('adopting an image by name', () => {
  it('tells to pull an image the engine does not have, and names building as the way for an image of ones own', async () => {
    const refused = adoptByName(EMPTY, 'nosuch/img:1');
    await expect(refused).rejects.toThrow(ImageNotFoundError);
    await expect(refused).rejects.toThrow(
      'image nosuch/img:1 does not exist; pull it first (`docker pull nosuch/img:1`, or `podman pull` on Podman) and adopt it again; to make an image of a repository of your own, use `bugbench images build <dir>`',
    );
  });

  it('leaves the generic hint to the places where building is the way', () => {
    expect(new ImageNotFoundError('bugbench/repo-x:latest').message).toBe('image bugbench/repo-x:latest does not exist; list images with `bugbench images` or build one with `bugbench images build <dir>`');
  });
});
