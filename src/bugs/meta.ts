/** meta.json of a bug artifact: where the bug comes from and how it was made. */

export type Strategy = 'removal' | 'history' | 'direct' | 'featadd' | 'buginstruct' | 'handwritten' | 'higher-order';

/** BugPilot's strategies give the solver a bug report; Self-play SWE-RL's the oracle test patch. */
export const REPORT_STRATEGIES: readonly string[] = ['featadd', 'buginstruct'];

export interface CheckParams {
  minPassingTests: number;
  minChangedFiles: number;
  minFailingTests: number;
  testTimeoutSec: number;
}

export const DEFAULT_CHECK_PARAMS: CheckParams = {
  minPassingTests: 10,
  minChangedFiles: 1,
  minFailingTests: 1,
  testTimeoutSec: 90,
};

export interface BugMeta {
  image: { tag: string; id?: string };
  baseCommit?: string;
  strategy?: Strategy | string;
  policy?: string;
  model?: string;
  order?: number;
  parentId?: string | null;
  params?: Partial<CheckParams>;
  createdAt?: string;
}

/** Reads meta.json leniently: unknown fields are kept, missing ones stay undefined. */
export function parseMeta(text: string): BugMeta {
  const value = JSON.parse(text) as Partial<BugMeta> & { image?: unknown };
  if (typeof value !== 'object' || value === null) throw new Error('meta.json is not a JSON object');
  const image = typeof value.image === 'string' ? { tag: value.image } : (value.image as BugMeta['image'] | undefined);
  if (!image || typeof image.tag !== 'string') throw new Error('meta.json has no image.tag');
  return { ...value, image } as BugMeta;
}
