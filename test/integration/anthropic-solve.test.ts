import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHECK_PARAMS } from '../../src/bugs/meta.js';
import { formatDiffFiles, parseDiffFiles } from '../../src/bugs/diff.js';
import { reverseDiff } from '../../src/bugs/reverse-diff.js';
import { buildHigherOrder } from '../../src/pipeline/higher-order.js';
import { importArtifact } from '../../src/pipeline/import.js';
import { runInjection } from '../../src/pipeline/inject.js';
import { solveBug, DEFAULT_SOLVE } from '../../src/pipeline/solve.js';
import { hereDoc } from '../../src/sandbox/shell-text.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { MockAnthropic, streamOf } from '../helpers/mock-anthropic.js';

const KEY = 'sk-ant-test-key-0000';
const home = mkdtempSync(join(tmpdir(), 'bugbench-anthropic-solve-'));
const store = Store.open({ root: home });
let solvable = '';
let tricky = '';
let server: MockAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(async () => {
  solvable = (await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store })).bug.id;
  const made = await runInjection({ image: 'bugbench/repo-slotsmith:latest', strategy: 'removal', policy: 'offline', n: 1, concurrency: 1, seed: 9, params: DEFAULT_CHECK_PARAMS, maxSteps: 100 }, { store });
  tricky = made.bugs[0]!.id;
  expect(made.bugs[0]!.valid).toBe(true);
}, 180_000);

/** A bash call applying `patch` in the solver's container, as a model would write it. */
const applying = (id: string, patch: string) => {
  const doc = hereDoc(patch);
  return { id, name: 'bash', input: { command: `git apply ${doc.open}\n${doc.body}\ngit diff --stat` } };
};

async function withModel<T>(script: Parameters<typeof streamOf>[0][], work: () => Promise<T>): Promise<{ result: T; mock: MockAnthropic }> {
  server = await new MockAnthropic(script.map((turn) => streamOf(turn)), KEY).start();
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
  process.env.ANTHROPIC_API_KEY = KEY;
  process.env.ANTHROPIC_BASE_URL = server.url;
  try {
    return { result: await work(), mock: server };
  } finally {
    process.env.ANTHROPIC_API_KEY = saved.key;
    process.env.ANTHROPIC_BASE_URL = saved.url;
  }
}

/** The text of the first message of a recorded request (the API takes a string or blocks). */
function firstText(request: { body?: Record<string, unknown> }): string {
  const content = (request.body!.messages as { content: string | { text?: string }[] }[])[0]!.content;
  return typeof content === 'string' ? content : content.map((b) => b.text ?? '').join('');
}

/** A patch that only adds a comment line above the first line a fix's first hunk finds in the buggy file. */
function noteIn(fix: ReturnType<typeof parseDiffFiles>[number]): string {
  const hunk = fix.hunks[0]!;
  const first = hunk.lines.find((line) => line[0] === ' ' || line[0] === '-')!.slice(1);
  const path = fix.newPath ?? fix.oldPath!;
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -${hunk.oldStart},1 +${hunk.oldStart},2 @@\n+# TODO: this part still looks wrong to me\n ${first}\n`;
}

const settings = { ...DEFAULT_SOLVE, policy: 'anthropic' as const, k: 1, concurrency: 1, maxSteps: 10 };

describe('a scripted model solving through the tools', () => {
  it('solves one bug, fails another, and the failed repair becomes a valid order-2 bug analysed by the model', async () => {
    const fix = reverseDiff(readFileSync(join(home, 'bugs', solvable, 'bug_inject.diff'), 'utf8'));
    const solved = await withModel(
      [
        { text: 'The exponent handling and key quoting regressed; restoring both.', tools: [applying('toolu_s1', fix)] },
        { text: 'Done.', tools: [{ id: 'toolu_s2', name: 'submit', input: {} }] },
      ],
      () => solveBug({ ...settings, bugId: solvable }, { store }),
    );
    expect(solved.result).toMatchObject({ solveRate: 1, injectReward: -0.8 });
    expect(solved.result.attempts[0]).toMatchObject({ solver: 'claude-sonnet-5-5', solved: true, reward: 1 });
    // The task the model read is the template around the oracle tests.
    expect(firstText(solved.mock.messageRequests[0]!)).toMatch(/<issue>\nThe project's test suite is being extended/);

    // The second bug: the model repairs one of its two files, and only leaves a note in the other.
    const trickyFix = parseDiffFiles(reverseDiff(readFileSync(join(home, 'bugs', tricky, 'bug_inject.diff'), 'utf8')));
    const half = formatDiffFiles(trickyFix.slice(0, 1)) + noteIn(trickyFix[1]!);
    const failed = await withModel(
      [
        { text: 'Only the first module looks wrong to me.', tools: [applying('toolu_t1', half)] },
        { text: 'Submitting.', tools: [{ id: 'toolu_t2', name: 'submit', input: {} }] },
      ],
      () => solveBug({ ...settings, bugId: tricky }, { store }),
    );
    expect(failed.result).toMatchObject({ solveRate: 0, injectReward: -0.8 });
    expect(failed.result.attempts[0]).toMatchObject({ solved: false, reward: -1 });

    const report = 'Scheduling a recurring slot returns nothing\n\nWhen I ask for the next occurrences, I get an empty list instead of the slots.';
    const higher = await withModel(
      [
        { text: report },
        { text: '<reasoning>A function stopped returning what callers expect.</reasoning>\n<category>B</category>' },
      ],
      () => buildHigherOrder({ parentId: tricky }, { store }),
    );
    expect(higher.result.bugs).toHaveLength(1);
    const child = store.get('bugs', higher.result.bugs[0]!.id)!;
    expect(child).toMatchObject({ status: 'valid', order: 2, parentId: tricky, attemptId: failed.result.attempts[0]!.id });
    expect(child.analysis).toMatchObject({ category: 'B', categoryReason: 'A function stopped returning what callers expect.', report: { source: 'model', model: 'claude-sonnet-5-5' } });
    expect(readFileSync(join(home, 'bugs', child.id, 'report.md'), 'utf8').trim()).toBe(report);
    // The model was asked for the report from the failing tests' output only.
    const asked = firstText(higher.mock.messageRequests[0]!);
    expect(asked).toMatch(/what its failing tests printed/);
    expect(asked).not.toContain('diff --git');
  }, 240_000);
});
