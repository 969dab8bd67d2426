/**
 * The workbench's screens, their number keys and every key each one takes:
 * the header, the footer and the `?` overlay all read this one list.
 */
export type ScreenId = 'images' | 'run' | 'rollouts' | 'checks' | 'review' | 'training';

export interface ScreenInfo {
  id: ScreenId;
  key: string;
  title: string;
  /** The screen's keys: what to press, what it does. */
  keys: [string, string][];
  /** The keys the footer names, most wanted first: each key with a word or two (words give way first on a narrow terminal). */
  footer: [string, string][];
}

export const SCREENS: ScreenInfo[] = [
  {
    id: 'images',
    key: '1',
    title: 'Images',
    keys: [
      ['↑/↓ j/k', 'select an image'],
      ['enter', 'set up a run on it (on the marked images, when some are)'],
      ['space', 'mark or unmark an image: one run spreads its rollouts over the marked images (as inject --images)'],
      ['b', 'build an image from a git repository (type its path, enter)'],
      ['a', 'adopt an image bugbench did not build, as it is: a SWE-bench instance image, your own (type its name, enter)'],
    ],
    footer: [['↑/↓', 'select'], ['space', 'mark'], ['enter', 'run on it'], ['b', 'build'], ['a', 'adopt']],
  },
  {
    id: 'run',
    key: '2',
    title: 'Run',
    keys: [
      ['↑/↓ j/k', 'move between the fields'],
      ['←/→ or -/+', 'the next strategy, policy or engine (this machine, or a Slurm job array), or one less / one more'],
      ['0-9, backspace', 'type a number, the first digit replacing the value shown; backspace erases (on a number field digits do not switch screens: tab or esc leaves)'],
      ['enter', 'start the run (values in red must be fixed first)'],
    ],
    footer: [['enter', 'start'], ['↑/↓', 'field'], ['←/→', 'change'], ['0-9', 'type'], ['backspace', 'erase']],
  },
  {
    id: 'rollouts',
    key: '3',
    title: 'Rollouts',
    keys: [
      ['↑/↓ j/k', 'focus a rollout'],
      ['[ / ]', 'a newer / an older run (every run of the workspace)'],
      ['PgUp/PgDn g/G', "scroll the focused rollout's transcript (G follows the end)"],
      ['f', 'unfold or fold long tool outputs'],
      ['p', 'replay the focused rollout at 10× (p again stops)'],
      ['enter', 'open its bug in Review (a solver attempt: the bug it was solving)'],
      ['c', 'cancel the live run (asks first: c again cancels)'],
      ['R', 'resume the run shown when it is marked resumable (interrupted or cancelled): here, or on Slurm if it ran there'],
    ],
    footer: [['↑/↓', 'rollout'], ['enter', 'bug'], ['c', 'cancel'], ['R', 'resume'], ['[/]', 'run'], ['p', 'replay'], ['f', 'fold'], ['PgUp/PgDn', 'scroll']],
  },
  {
    id: 'checks',
    key: '4',
    title: 'Checks',
    keys: [
      ['enter', 'run the next check (a new check session)'],
      ['a', 'run the rest of the checks'],
      ['↑/↓ j/k', 'focus a check: its command, runs, counts, changed tests'],
      ['l', "open the focused check's log (esc closes)"],
      ['s', 'run 8 solver attempts: solve rate and rewards'],
      ['h', 'make the higher-order bugs of the failed attempts and check them'],
      ['o', 'open the next higher-order bug here'],
      ['c', 'cancel the checks, attempts or higher-order bugs under way'],
    ],
    footer: [['enter', 'next check'], ['a', 'all'], ['s', 'solve'], ['h', 'higher-order'], ['c', 'cancel'], ['o', 'open child'], ['l', 'log'], ['↑/↓', 'check']],
  },
  {
    id: 'review',
    key: '5',
    title: 'Review',
    keys: [
      ['↑/↓ j/k', 'select a bug (list) or scroll (detail)'],
      ['enter/→', 'into the detail pane; ← or esc back to the list'],
      ['v / V', 'detail: summary, checks, diff, tests'],
      ['enter/l', 'on a check: open its log'],
      ['PgUp/PgDn g/G', 'scroll the detail'],
      ['f i t o', 'filter by status, image, strategy, order'],
      ['a', 'accept the bug'],
      ['r', 'reject it (type the reason, enter)'],
    ],
    footer: [['a', 'accept'], ['r', 'reject'], ['enter', 'detail'], ['f/i/t/o', 'filter'], ['v', 'view'], ['↑/↓', 'select'], ['PgUp/PgDn', 'scroll'], ['l', 'log']],
  },
  {
    id: 'training',
    key: '6',
    title: 'Training',
    keys: [
      ['↑/↓ j/k', 'focus a job: its dataset, command and log tail'],
      ['n', 'submit the accepted bugs: a form for format, engine and command'],
      ['form: ↑/↓ tab', 'move between the fields; ←/→ choose; type the command; enter submits; esc closes'],
      ['x', 'cancel the focused job'],
      ['r', 'ask the engines about the jobs now'],
    ],
    footer: [['n', 'submit accepted bugs'], ['x', 'cancel job'], ['r', 'refresh'], ['↑/↓', 'job']],
  },
];

export const GLOBAL_KEYS: [string, string][] = [
  [SCREENS.map((s) => s.key).join(' '), 'go to a screen'],
  ['tab / shift-tab', 'next / previous screen'],
  ['?', 'this help'],
  ['esc', 'back'],
  ['q', 'quit (asks first while a run goes on)'],
  ['ctrl-c', 'cancel what runs and quit'],
];

export function screenInfo(id: ScreenId): ScreenInfo {
  return SCREENS.find((s) => s.id === id)!;
}

/**
 * The footer's text for a width: every key with its words when they fit;
 * otherwise the least wanted keys lose their words first, and only when even
 * the bare keys do not fit are keys left out (with "…"). Keys come in the
 * order given; the help (`?`) always lists everything.
 */
export function fitFooter(items: [string, string][], width: number): string {
  const text = (shown: (string | undefined)[]) => shown.filter((s) => s !== undefined).join(' · ');
  const full = items.map(([key, words]) => `${key} ${words}`);
  for (let bare = 0; bare <= items.length; bare++) {
    const shown = items.map(([key], i) => (i >= items.length - bare ? key : full[i]));
    if (text(shown).length <= width) return text(shown);
  }
  const keys = items.map(([key]) => key);
  while (keys.length > 0 && `${text(keys)} …`.length > width) keys.pop();
  return keys.length === items.length ? text(keys) : `${text(keys)} …`;
}
