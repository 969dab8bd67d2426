/**
 * What mini-swe-agent's trajectory inspector does with a `*.traj.json` file,
 * in TypeScript, so a test can open bugbench's trajectories the way it does.
 * Read from SWE-agent/mini-swe-agent 2.4.6 (commit a83fcae):
 * src/minisweagent/run/utilities/inspector.py (`_load_current_trajectory`,
 * `_messages_to_steps`, `update_content`) and
 * src/minisweagent/models/utils/content_string.py (`get_content_string`).
 */

type Json = Record<string, unknown>;

/** The loader: a list of messages, or an object with `messages`; anything else it refuses. */
export function loadMessages(data: unknown): Json[] {
  if (Array.isArray(data)) return data as Json[];
  if (data && typeof data === 'object' && 'messages' in data) return (data as { messages: Json[] }).messages;
  throw new Error('Unrecognized trajectory format');
}

/** Pages of the view: a new one starts at each assistant message (or one with actions). */
export function messagesToSteps(messages: Json[]): Json[][] {
  const steps: Json[][] = [];
  let current: Json[] = [];
  for (const message of messages) {
    const actions = (message.extra as Json | undefined)?.actions;
    if ((Array.isArray(actions) && actions.length > 0) || message.role === 'assistant') {
      steps.push(current);
      current = [message];
    } else current.push(message);
  }
  if (current.length > 0) steps.push(current);
  return steps;
}

/** The text shown for a message: its content (string or blocks) and the arguments of its tool calls. */
export function contentString(message: Json): string {
  const texts: string[] = [];
  const content = message.content;
  if (typeof content === 'string') texts.push(content);
  else if (Array.isArray(content)) {
    for (const item of content as Json[]) {
      if (item.type === 'tool_use') texts.push(JSON.stringify(item.input ?? {}));
      else if (item.type === 'tool_result' && typeof item.content === 'string') texts.push(item.content);
      else if (typeof item.text === 'string' && item.text) texts.push(item.text);
    }
  }
  for (const call of (message.tool_calls as Json[] | undefined) ?? []) {
    const fn = call.function as Json | undefined;
    if (fn) texts.push(String(fn.arguments ?? '{}'));
  }
  return texts.filter(Boolean).join('\n\n');
}

/** Every message as the inspector shows it: its role in capitals and its text. */
export function inspect(data: unknown): { role: string; text: string }[][] {
  return messagesToSteps(loadMessages(data)).map((step) =>
    step.map((message) => ({ role: String(message.role ?? message.type ?? 'unknown').toUpperCase(), text: contentString(message) })),
  );
}
