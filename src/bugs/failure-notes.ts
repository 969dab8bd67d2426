/**
 * What each failing test printed, read from a pytest log: the message of its
 * short-summary line ("FAILED id - message") and the "E   " lines of its
 * failure section. The material a bug report is written from.
 */

export interface FailureNote {
  test: string;
  /** The summary message, or why there is none (the test did not run). */
  message: string;
  /** Up to a few lines of the assertion or error. */
  details: string[];
}

const MAX_DETAIL_LINES = 6;

/** The failure section of each test: "____ test_name ____" up to the next section. */
function sections(log: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of log.split('\n')) {
    const header = /^_{3,} (.+?) _{3,}$/.exec(line);
    if (header) {
      out.set(header[1]!, (current = []));
      continue;
    }
    if (/^={3,}/.test(line)) current = undefined;
    else current?.push(line);
  }
  return out;
}

export function failureNotes(log: string, tests: string[]): FailureNote[] {
  const summary = new Map<string, string>();
  for (const line of log.split('\n')) {
    const m = /^(?:FAILED|ERROR) (.+?)(?: - (.*))?$/.exec(line.trim());
    if (!m) continue;
    const id = m[1]!.includes('[') ? m[1]!.slice(0, m[1]!.lastIndexOf(']') + 1) : m[1]!.split(' ')[0]!;
    summary.set(id, m[2] ?? '');
  }
  const bySection = sections(log);
  return tests.map((test) => {
    // Sections are headed by the test's name without its file: "test_y" or "Class.test_y[param]".
    const name = test.split('::').slice(1).join('.');
    const lines = bySection.get(name) ?? [];
    let details = lines.filter((l) => l.startsWith('E ')).map((l) => l.slice(1).trim()).filter((l) => l !== '').slice(0, MAX_DETAIL_LINES);
    let message = summary.has(test) ? summary.get(test) || 'failed' : 'did not run: the run stopped before it, or it is gone';
    // pytest cuts summary messages to the terminal's width; the error line of the section is whole.
    if (details.length > 0 && (message === 'failed' || message.endsWith('...'))) [message, details] = [details[0]!, details.slice(1)];
    return { test, message, details: details.filter((d) => d !== message) };
  });
}

/** The notes as plain text, one test after another. */
export function formatFailureNotes(notes: FailureNote[], max = 12): string {
  const shown = notes.slice(0, max).map((n) => [`- ${n.test}: ${n.message}`, ...n.details.map((d) => `    ${d}`)].join('\n'));
  if (notes.length > max) shown.push(`- … and ${notes.length - max} more`);
  return shown.join('\n');
}
