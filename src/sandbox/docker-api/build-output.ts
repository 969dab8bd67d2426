/**
 * Turning the output of long build steps (an image build's apt-get, a
 * repository's dependency step) into a readable number of progress lines, and
 * reading an engine's build stream to its end.
 */
import type Docker from 'dockerode';
import type { Progress } from '../../progress.js';

const APT_PHASE = /^(Get|Unpacking|Setting up)\b/;
/** apt and dpkg chatter that says nothing a person needs while waiting. */
const NOISE = /^ ---> |^Removing intermediate container|^Successfully tagged|^\(Reading database|^Selecting previously unselected|^Preparing to unpack|^debconf: /;
const ALWAYS = /^(Step \d+\/\d+|E: |W: |error|npm ERR!|npm error|Fetched |Successfully built|go: |fatal: )/i;

/**
 * Keeps what a person wants to see of apt-get and the like: every `Step`,
 * error and summary line, the first line of each apt phase and then every
 * `every`-th, and nothing of the builder's bookkeeping (` ---> 1a2b`,
 * `Removing intermediate container`). Other lines pass while there are few.
 */
export class StepLines {
  private phase = '';
  private inPhase = 0;
  private plain = 0;
  /** The last lines seen, kept for an error message. */
  readonly tail: string[] = [];

  /**
   * @param every show every n-th line of an apt phase
   * @param plainLimit other lines pass until this many were seen, then every n-th
   * @param hide lines never shown (still kept in the tail)
   */
  constructor(
    private readonly every = 25,
    private readonly plainLimit = 200,
    private readonly hide?: RegExp,
  ) {}

  /** The line to show for `line`, or undefined to show nothing. */
  filter(line: string): string | undefined {
    // The builder colours what a step wrote to stderr.
    const text = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
    if (!text.trim()) return undefined;
    this.tail.push(text);
    if (this.tail.length > 20) this.tail.shift();
    if (NOISE.test(text) || this.hide?.test(text)) return undefined;
    if (ALWAYS.test(text)) return text;
    const phase = APT_PHASE.exec(text)?.[1];
    if (phase) {
      this.inPhase = phase === this.phase ? this.inPhase + 1 : 0;
      this.phase = phase;
      return this.inPhase % this.every === 0 ? text : undefined;
    }
    this.plain += 1;
    if (this.plain <= this.plainLimit) return text;
    return this.plain % this.every === 0 ? text : undefined;
  }

  /** The last lines, joined for an error message (at most `chars` characters). */
  lastLines(chars = 600): string {
    return this.tail.join(' | ').slice(-chars);
  }
}

/** Splits chunks of text into whole lines and hands each to `line`; `flush` ends the last one. */
export function lineSplitter(line: (text: string) => void): { push(chunk: string): void; flush(): void } {
  let partial = '';
  return {
    push(chunk) {
      const parts = (partial + chunk).split(/\r?\n|\r/);
      partial = parts.pop() ?? '';
      for (const part of parts) line(part);
    },
    flush() {
      if (partial) line(partial);
      partial = '';
    },
  };
}

interface BuildLine {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
}

/** Reads an image build's JSON stream to its end, showing its lines through `lines`; an error in it is thrown. */
export function followBuild(docker: Docker, stream: NodeJS.ReadableStream, lines: StepLines, progress: Progress): Promise<void> {
  const split = lineSplitter((text) => {
    const shown = lines.filter(text);
    if (shown !== undefined) progress(`  ${shown}`);
  });
  return new Promise((resolve, reject) => {
    let failure: string | undefined;
    docker.modem.followProgress(
      stream,
      (err: Error | null) => {
        split.flush();
        if (err) reject(err);
        else if (failure) reject(new Error(failure));
        else resolve();
      },
      (event: BuildLine) => {
        if (event.error || event.errorDetail?.message) failure = event.error ?? event.errorDetail?.message;
        else if (event.stream) split.push(event.stream);
        else if (event.status) split.push(`${event.status}\n`);
      },
    );
  });
}
