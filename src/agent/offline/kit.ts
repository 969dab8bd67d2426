/**
 * What the offline injector needs to know about one language, and the small
 * pieces every language shares. The injector's plan (find the tests, record
 * the original results, try candidate changes one at a time, combine them,
 * pick the oracle tests, hide the bug by deleting the tests that catch it,
 * submit) is the same in every language; a kit says how each step is done
 * there: which files are tests and code, how the suite runs and is read,
 * where the candidates are, and how a test is deleted.
 */
import { languageById } from '../../sandbox/languages.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../paths.js';
import type { Action, Observation, ToolCall } from './offline-model.js';
import type { Rng } from './rng.js';
import type { Splice } from './syntax.js';

export type OfflineStrategy = 'removal' | 'history' | 'direct';
export const OFFLINE_STRATEGIES: OfflineStrategy[] = ['removal', 'history', 'direct'];

/** Where the agent keeps its notes and logs, and where it writes the artifact. */
export const WORK = '/tmp/bugbench_offline';
export const OUT = '/tmp/artifact';
export const HELPER = `${WORK}/helper.py`;
export const PARSER = `${OUT}/test_parser.py`;
/** How many candidates a listing returns at most. */
export const LIST_LIMIT = 150;
/** How many candidates of one file are kept at most: far more than are ever tried, far fewer than a generated file holds. */
export const CANDIDATES_PER_FILE = 200;

/** What the helper's compare says: the count is exact, the list may be cut. */
export interface Compared {
  broken_count: number;
  broken: string[];
  broken_files: Record<string, number>;
  missing: number;
}

/** One candidate change: editor calls and/or a bash command that make it, and the code files it touches. */
export interface Candidate {
  label: string;
  files: string[];
  /** Editor calls that make the change, before `apply` runs. */
  edits?: ToolCall[];
  /** A bash command that makes the change. */
  apply?: string;
  /** For a change found in a syntax tree: the file's text and the splice, so two changes of one file can be made together. */
  splice?: { source: string; change: Splice };
}

export interface CandidateList {
  candidates: Candidate[];
  /** A sentence for the transcript, e.g. that a file's candidates were sampled. */
  note?: string;
}

/** One step of the agent: a thought and tool calls, answered by their results. */
export type Ask = (thought: string, ...calls: ToolCall[]) => AsyncGenerator<Action, Observation[], Observation[]>;

export interface Baseline {
  passed: number;
  passingByFile: Record<string, number>;
}

export interface Kit {
  /** "Python", "Go", "TypeScript": said in the agent's thoughts. */
  language: string;
  testFiles: string[];
  codeFiles: string[];
  /** Writes what the runs need (the parser, a helper) and learns what it must about the files; a reason to stop, or undefined. */
  prepare(ask: Ask): AsyncGenerator<Action, string | undefined, Observation[]>;
  /** A bash command: the whole suite (killed after `limit` s) into WORK/<name>.log, its results into WORK/<name>.json. */
  runSuite(name: string, limit?: number): string;
  /** A bash command that shows the original run's results, and how to read them from its output. */
  showBaseline: string;
  baseline(output: string): Baseline | undefined;
  /** The candidates of a strategy other than history, in no particular order, and what to say about how they were chosen. */
  candidates(strategy: 'removal' | 'direct', ask: Ask, rng: Rng): AsyncGenerator<Action, CandidateList, Observation[]>;
  /** The test files that hold the broken tests of the buggy run (counts per file). */
  brokenFiles(ask: Ask, compared: Compared): AsyncGenerator<Action, Record<string, number>, Observation[]>;
  /** The artifact's test script for the chosen test files. */
  script(testFiles: string[]): string;
  /**
   * Deletes the tests broken in WORK/buggy.json from the test files (after
   * brokenFiles); returns the files changed, or why they cannot be deleted
   * (other tests use one of them) — then nothing is deleted.
   */
  weaken(ask: Ask, compared: Compared): AsyncGenerator<Action, string[] | string, Observation[]>;
}

export const bash = (command: string, timeout?: number): ToolCall => ({ name: 'bash', input: timeout ? { command, timeout } : { command } });
export const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The JSON after "RESULT " in a helper's output, or undefined. */
export function resultOf<T>(output: string): T | undefined {
  const line = output.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) return undefined;
  try {
    return JSON.parse(line.slice('RESULT '.length)) as T;
  } catch {
    return undefined;
  }
}

export function readResource(...parts: string[]): string {
  return readFileSync(join(PACKAGE_ROOT, 'data', ...parts), 'utf8');
}

/** The editor call that writes a file. */
export const create = (path: string, text: string): ToolCall => ({ name: 'editor', input: { command: 'create', path, file_text: text } });

/** The image languages (languages.ts ids) the offline injector works in, as it names them. */
export const OFFLINE_LANGUAGES: Record<string, string> = {
  python: 'Python',
  go: 'Go',
  node: 'TS/JS',
};

const languageName = (id: string) => languageById(id)?.name ?? id;

/** What the offline policy offers for an image of `language`, short enough for the Run form's strategy row. */
export function offlineOffer(language: string): string {
  const name = OFFLINE_LANGUAGES[language];
  if (name) return `offline: ${OFFLINE_STRATEGIES.join(', ')} (${name})`;
  return `no offline bugs in ${language ? languageName(language) : 'this image'}: needs a model`;
}

/**
 * Why the offline policy cannot inject into `image`, whose language is
 * `language` (C/C++, Ruby, PHP, Rust, Java: no kit reads them), or undefined
 * when it can, or when the language is not known and the injector looks for
 * itself.
 */
export function offlineRefusal(language: string, image: string): string | undefined {
  if (language === '' || language in OFFLINE_LANGUAGES) return undefined;
  return (
    `the offline policy cannot inject into ${image}: its repository is ${languageName(language)}, and the offline injector makes bugs only in ` +
    `${Object.values(OFFLINE_LANGUAGES).join(', ')}. A model is needed: use --policy anthropic with ANTHROPIC_API_KEY set, or --policy openai with --base-url and --model`
  );
}
