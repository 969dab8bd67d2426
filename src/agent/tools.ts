/**
 * The agent's tools, run in its container: `bash`, an `editor` (view, create,
 * str_replace, insert) and `submit`. A tool that fails answers with an error
 * result for the model to read; it never ends the loop.
 */
import { MAX_FILE_BYTES } from '../bugs/artifact.js';
import { errorMessage, ReadRefusedError } from '../errors.js';
import { CappedOutput } from '../sandbox/capped-output.js';
import { formatBytes, placeRefusal, readRefusal } from '../sandbox/container-files.js';
import { isEngineFailure } from '../sandbox/engine-errors.js';
import { shellQuote, type Sandbox } from '../sandbox/sandbox.js';
import type { ToolDefinition } from './messages.js';

export interface ToolResult {
  output: string;
  isError: boolean;
  exitCode?: number;
  /** Set by submit when the submission was accepted. */
  submitted?: string[];
}

export type SubmitHandler = (input: Record<string, unknown>) => Promise<{ ok: true; files: string[] } | { ok: false; error: string }>;

export interface ToolOptions {
  /** Default time limit of a bash call. */
  bashTimeoutMs: number;
  /** What the model sees of a command's output at most (head and tail kept). */
  maxOutputChars: number;
  submit: { definition: ToolDefinition; handle: SubmitHandler };
}

export const DEFAULT_TOOL_OPTIONS = { bashTimeoutMs: 90_000, maxOutputChars: 30_000 };
/** The biggest file the editor views or edits: the artifact limit. Bigger files are read in parts with bash. */
export const EDITOR_MAX_FILE_BYTES = MAX_FILE_BYTES;
const BIG_FILE_HINT = 'read or change parts of it with bash (head, sed -n, grep) instead';
/** The longest a single bash call may ask for. */
const MAX_BASH_TIMEOUT_SEC = 30 * 60;

/** The bash tool, naming the repository's root (the image's, /repo in bugbench's own images). */
const bashTool = (root: string): ToolDefinition => ({
  name: 'bash',
  description: `Run a bash command in the repository container (working directory ${root}, no network). Returns stdout and stderr and the exit code. Long output is shortened in the middle; redirect to a file and read parts of it when you need all of it.`,
  input_schema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command to run.' },
      timeout: { type: 'integer', description: 'Seconds before the command is killed (default 90).' },
    },
    required: ['command'],
  },
});

const editorTool = (root: string): ToolDefinition => ({
  name: 'editor',
  description: `View and edit files. \`view\` shows a file with line numbers (optionally a view_range [first, last]) or lists a folder; \`create\` writes a new file (or replaces one) with file_text; \`str_replace\` replaces old_str, which must occur exactly once, with new_str; \`insert\` puts new_str after line insert_line (0 for the top). Paths are absolute or relative to ${root}.`,
  input_schema: {
    type: 'object',
    properties: {
      command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'] },
      path: { type: 'string' },
      file_text: { type: 'string' },
      old_str: { type: 'string' },
      new_str: { type: 'string' },
      insert_line: { type: 'integer' },
      view_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
    },
    required: ['command', 'path'],
  },
});

export const INJECTOR_SUBMIT: ToolDefinition = {
  name: 'submit',
  description:
    'Submit the bug artifact: the paths, inside the container, of its five files. They are copied out and checked; if something is wrong you get an error and can submit again.',
  input_schema: {
    type: 'object',
    properties: {
      test_files: { type: 'string', description: 'Path of test_files.txt (oracle test files, one per line, relative to the repo root).' },
      test_script: { type: 'string', description: 'Path of test_script.sh (runs the chosen tests from the repo root).' },
      test_parser: { type: 'string', description: 'Path of test_parser.py (reads the test log on stdin, prints {test id: "passed"|"failed"} JSON).' },
      bug_inject: { type: 'string', description: 'Path of bug_inject.diff (git diff over code files only).' },
      test_weaken: { type: 'string', description: 'Path of test_weaken.diff (git diff over test files only).' },
    },
    required: ['test_files', 'test_script', 'test_parser', 'bug_inject', 'test_weaken'],
  },
};

export const SOLVER_SUBMIT: ToolDefinition = {
  name: 'submit',
  description:
    'Submit your fix. Your changes to the files of the repository (new, changed and deleted files, against its one commit) are taken as the fix; nothing else is needed.',
  input_schema: { type: 'object', properties: {} },
};

/** What the loop needs of its tools. */
export interface Tools {
  readonly definitions: ToolDefinition[];
  execute(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult>;
}

export class ToolSet implements Tools {
  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: ToolOptions,
  ) {}

  get definitions(): ToolDefinition[] {
    return [bashTool(this.sandbox.root), editorTool(this.sandbox.root), this.options.submit.definition];
  }

  async execute(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { output: `the input of ${name} must be a JSON object`, isError: true };
    }
    const args = input as Record<string, unknown>;
    try {
      switch (name) {
        case 'bash':
          return await this.bash(args, signal);
        case 'editor':
          return await this.editor(args);
        case 'submit': {
          const outcome = await this.options.submit.handle(args);
          return outcome.ok
            ? { output: `Submitted: ${outcome.files.join(', ')}`, isError: false, submitted: outcome.files }
            : { output: `Submission refused: ${outcome.error}`, isError: true };
        }
        default:
          return { output: `no tool named "${name}"; the tools are bash, editor and submit`, isError: true };
      }
    } catch (error) {
      // The engine failing is not something the agent did or can mend: the rollout ends (and its engine is judged).
      if (isEngineFailure(error)) throw error;
      return { output: errorMessage(error), isError: true };
    }
  }

  private async bash(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const command = args.command;
    if (typeof command !== 'string' || command.trim() === '') return { output: 'bash needs a non-empty "command"', isError: true };
    const timeoutMs =
      typeof args.timeout === 'number' && args.timeout > 0 ? Math.min(args.timeout, MAX_BASH_TIMEOUT_SEC) * 1000 : this.options.bashTimeoutMs;
    const result = await this.sandbox.exec(command, { timeoutMs, signal });
    const shown = new CappedOutput(this.options.maxOutputChars);
    shown.push(Buffer.from(result.stdout + (result.stderr ? (result.stdout ? '\n' : '') + result.stderr : '')));
    let output = shown.text();
    if (result.timedOut) output += `\n[killed after ${timeoutMs / 1000} s]`;
    if (result.cancelled) output += '\n[stopped: the rollout was cancelled]';
    output += `\n[exit code ${result.exitCode}]`;
    return { output: output.trimStart(), isError: false, exitCode: result.exitCode };
  }

  private async editor(args: Record<string, unknown>): Promise<ToolResult> {
    const command = args.command;
    const path = typeof args.path === 'string' ? args.path : '';
    if (!path) return { output: 'editor needs a "path"', isError: true };
    const str = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
    switch (command) {
      case 'view':
        return this.view(path, Array.isArray(args.view_range) ? (args.view_range as number[]) : undefined);
      case 'create': {
        const text = str('file_text');
        if (text === undefined) return { output: 'create needs "file_text"', isError: true };
        await this.sandbox.writeFile(path, text);
        return { output: `Wrote ${this.sandbox.absolutePath(path)} (${text.split('\n').length} lines)`, isError: false };
      }
      case 'str_replace': {
        const oldStr = str('old_str');
        const newStr = str('new_str') ?? '';
        if (oldStr === undefined || oldStr === '') return { output: 'str_replace needs a non-empty "old_str"', isError: true };
        const { content, mode } = await this.readForEdit(path);
        const text = content.toString('utf8');
        const count = text.split(oldStr).length - 1;
        if (count !== 1) {
          return {
            output: count === 0 ? `old_str does not occur in ${path}` : `old_str occurs ${count} times in ${path}; include more context so it is unique`,
            isError: true,
          };
        }
        const at = text.indexOf(oldStr);
        await this.sandbox.writeFile(path, text.slice(0, at) + newStr + text.slice(at + oldStr.length), mode);
        const line = text.slice(0, at).split('\n').length;
        return { output: `Replaced 1 occurrence in ${path} at line ${line}`, isError: false };
      }
      case 'insert': {
        const newStr = str('new_str');
        const after = args.insert_line;
        if (newStr === undefined || typeof after !== 'number') return { output: 'insert needs "new_str" and "insert_line"', isError: true };
        const { content, mode } = await this.readForEdit(path);
        const text = content.toString('utf8');
        const endsWithNewline = text.endsWith('\n');
        const lines = text === '' ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
        if (after < 0 || after > lines.length) return { output: `insert_line must be between 0 and ${lines.length}`, isError: true };
        lines.splice(after, 0, ...newStr.replace(/\n$/, '').split('\n'));
        await this.sandbox.writeFile(path, lines.join('\n') + (endsWithNewline || text === '' ? '\n' : ''), mode);
        return { output: `Inserted ${newStr.split('\n').length} line(s) after line ${after} of ${path}`, isError: false };
      }
      default:
        return { output: `unknown editor command "${String(command)}"; use view, create, str_replace or insert`, isError: true };
    }
  }

  /** A whole file for an edit: the editor holds it in memory, so it must be a regular file within the editor's limit. */
  private async readForEdit(path: string): Promise<{ content: Buffer; mode: number }> {
    try {
      return await this.sandbox.readFileEntry(path, { maxBytes: EDITOR_MAX_FILE_BYTES });
    } catch (error) {
      if (error instanceof ReadRefusedError && /limit of this read/.test(error.problem)) {
        throw new ReadRefusedError(error.path, `${error.problem}; the editor edits files up to ${formatBytes(EDITOR_MAX_FILE_BYTES)}: ${BIG_FILE_HINT}`);
      }
      throw error;
    }
  }

  /**
   * A folder is listed; a file is numbered and cut in the container (awk), and
   * what comes back stops at the tool output cap, so the view of a file up to
   * the editor's limit holds at most that cap in memory.
   */
  private async view(path: string, range?: number[]): Promise<ToolResult> {
    const target = this.sandbox.absolutePath(path);
    const info = await this.sandbox.inspect(target);
    if (info.kind === 'directory' && placeRefusal(info, this.sandbox.root) === undefined) {
      const listing = await this.sandbox.exec(`cd ${shellQuote(info.real)} && find . -maxdepth 2 -not -path '*/.git*' -not -name '.' | sort | head -400`, {
        maxOutputBytes: this.options.maxOutputChars,
      });
      return { output: listing.stdout, isError: false };
    }
    const refusal = readRefusal(info, EDITOR_MAX_FILE_BYTES, this.sandbox.root);
    if (refusal) {
      const tooBig = !placeRefusal(info, this.sandbox.root) && info.kind === 'file' && info.size > EDITOR_MAX_FILE_BYTES;
      const hint = tooBig ? `; the editor views files up to ${formatBytes(EDITOR_MAX_FILE_BYTES)}: ${BIG_FILE_HINT}` : '';
      throw new ReadRefusedError(target, `${refusal}${hint}`);
    }
    const [first, last] = range ?? [1, -1];
    const from = Math.max(1, first ?? 1);
    const to = last === undefined || last < 0 ? -1 : last;
    const awk = `awk -v from=${from} -v to=${to} 'NR >= from && (to < 0 || NR <= to) { printf "%6d\\t%s\\n", NR, $0 }' ${shellQuote(info.real)}`;
    const result = await this.sandbox.exec(awk, { maxOutputBytes: this.options.maxOutputChars, timeoutMs: 60_000 });
    if (result.exitCode !== 0) throw new ReadRefusedError(target, `could not be read: ${result.stderr.trim().slice(-300)}`);
    const cut = result.truncated ? `\n[the view stops at ${this.options.maxOutputChars} characters; ask for a view_range to see the rest]` : '';
    return { output: result.stdout.replace(/\n$/, '') + cut, isError: false };
  }
}
