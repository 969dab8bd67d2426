/**
 * Keys that arrive in one read — typed faster than the terminal is read, a
 * paste, `tmux send-keys 1 Enter` — come from Ink as one `input` string.
 * They are split here into the keys Ink would have given one at a time, so
 * each acts in order: plain characters, and enter, tab and backspace among them.
 */
import type { Key } from 'ink';

/** The control characters a read may hold among plain ones, as the keys they are. */
const CONTROLS: Record<string, Partial<Key>> = {
  '\r': { return: true },
  '\n': { return: true },
  '\t': { tab: true },
  '\x7f': { backspace: true },
  '\b': { backspace: true },
};

/** Each key of `input` with its flags; undefined when it is one key already or holds what cannot be split (escape sequences, ctrl or meta keys). */
export function splitKeys(input: string, key: Key): [string, Key][] | undefined {
  const chars = [...input];
  if (chars.length < 2 || key.ctrl || key.meta) return undefined;
  // eslint-disable-next-line no-control-regex
  if (!chars.every((char) => char in CONTROLS || !/[\u0000-\u001f\u007f-\u009f]/.test(char))) return undefined;
  const plain: Key = { ...key, return: false, tab: false, backspace: false, delete: false, shift: false };
  return chars.map((char) => (char in CONTROLS ? ['', { ...plain, ...CONTROLS[char] }] : [char, { ...plain, shift: /[A-Z]/.test(char) }]));
}
