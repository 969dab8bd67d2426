import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { corpusFrom, corpusOf, imageOfRollout, imagesLabel, imagesOfRollouts, parseImageList } from '../../../src/pipeline/corpus.js';

const IMAGES = ['a:1', 'b:1', 'c:1'];
const corpus = (seed: number) => ({ image: IMAGES[0]!, images: IMAGES, seed });
const assignment = (seed: number, n: number) => Array.from({ length: n }, (_, i) => imageOfRollout(corpus(seed), i));

describe('the images of a run over a corpus', () => {
  it('deals rollouts round-robin, starting where the seed says', () => {
    expect(assignment(0, 7)).toEqual(['a:1', 'b:1', 'c:1', 'a:1', 'b:1', 'c:1', 'a:1']);
    expect(assignment(1, 4)).toEqual(['b:1', 'c:1', 'a:1', 'b:1']);
    expect(assignment(5, 3)).toEqual(['c:1', 'a:1', 'b:1']);
  });

  it('gives a seed the same assignment every time, and a rollout the same image whichever rollouts are run with it', () => {
    expect(assignment(42, 10)).toEqual(assignment(42, 10));
    // A resume runs rollouts 4 and 6 alone: each on the image it had in the whole run.
    expect([4, 6].map((i) => imageOfRollout(corpus(42), i))).toEqual([assignment(42, 10)[4], assignment(42, 10)[6]]);
  });

  it('puts every rollout of a one-image run (or a run recorded before corpora) on its image', () => {
    expect(corpusOf({ image: 'x:1' })).toEqual(['x:1']);
    expect([0, 1, 2].map((i) => imageOfRollout({ image: 'x:1', seed: 9 }, i))).toEqual(['x:1', 'x:1', 'x:1']);
    expect(imagesLabel({ image: 'x:1' })).toBe('x:1');
    expect(imagesLabel({ image: 'a:1', images: IMAGES })).toBe('3 images');
  });

  it('names only the images the given rollouts use, in the corpus order', () => {
    expect(imagesOfRollouts(corpus(0), [0])).toEqual(['a:1']);
    expect(imagesOfRollouts(corpus(1), [2, 0])).toEqual(['a:1', 'b:1']);
    expect(imagesOfRollouts(corpus(0), [])).toEqual([]);
  });
});

describe('an images file', () => {
  it('is one image a line; blank lines and # comments are left out', () => {
    expect(parseImageList('# the corpus\na:1\n\n  b:1  # a comment\r\nc:1', 'list.txt')).toEqual(['a:1', 'b:1', 'c:1']);
  });

  it('that names no image is refused, naming the file', () => {
    expect(() => parseImageList('# nothing\n\n', 'list.txt')).toThrow(new UsageError('inject: list.txt names no image; write one image a line'));
  });

  it('adds to repeated --image, and an image named twice is refused', () => {
    expect(corpusFrom(['a:1'], ['b:1', 'c:1'])).toEqual(IMAGES);
    expect(() => corpusFrom(['a:1'], ['b:1', 'a:1'])).toThrow(/image a:1 is named twice/);
  });
});
