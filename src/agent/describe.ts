/** Short, one-line descriptions of what a rollout does, shared by the CLI's progress and the TUI. */

/** The text on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What a tool call does, in the words a person would scan for: the command, the file, the paths. */
export function describeToolInput(name: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  if (name === 'bash') return String(args.command ?? '');
  if (name === 'editor') return `${String(args.command ?? '')} ${String(args.path ?? '')}`;
  return Object.values(args).map(String).join(' ');
}
