/**
 * Supervised fine-tuning data: every successful solver trajectory of a bug
 * (rejection sampling: failed attempts never enter), as the chat messages a
 * trainer reads — system, task, the assistant's turns with their reasoning
 * text and tool calls, each tool's result — with the tools' JSON schemas.
 * The reasoning text is kept: BugPilot (5.2) found students trained without
 * it do far worse. Reasoning a server streamed apart from the answer (vLLM's
 * `reasoning_content`) goes in the assistant message's `reasoning_content`,
 * the field chat templates of reasoning models read. Each line names the
 * policy, model and server that wrote the trajectory.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentBlock, Message, ToolDefinition } from '../agent/messages.js';
import { readTrajectory } from '../agent/trajectory.js';
import type { AttemptRecord, BugRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      reasoning_content?: string;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

function textOf(blocks: ContentBlock[]): string {
  return blocks
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** The conversation in the chat form trainers read (OpenAI-style tool calls). */
export function chatMessages(system: string, messages: Message[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push({ role: message.role, content: message.content } as ChatMessage);
      continue;
    }
    if (message.role === 'assistant') {
      const calls = message.content.filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use');
      const reasoning = message.content.flatMap((b) => (b.type === 'reasoning' ? [b.text] : [])).join('\n');
      out.push({
        role: 'assistant',
        content: textOf(message.content),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}),
      });
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'tool_result') out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
      else if (block.type === 'text') out.push({ role: 'user', content: block.text });
    }
  }
  return out;
}

export function toolSchemas(tools: ToolDefinition[]) {
  return tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

/** The solved attempts of a bug. */
export function solvedAttempts(store: Store, bug: BugRecord): AttemptRecord[] {
  return store.all('attempts').filter((a) => a.bugId === bug.id && a.solved === true);
}

export function sftLines(store: Store, bug: BugRecord) {
  return solvedAttempts(store, bug).flatMap((attempt) => {
    const path = store.abs(join('runs', attempt.runId, `${attempt.id}.jsonl`));
    if (!existsSync(path)) return [];
    const trajectory = readTrajectory(path);
    if (!trajectory.messages || trajectory.system === undefined) return [];
    return [
      {
        bug_id: bug.id,
        attempt_id: attempt.id,
        solver: attempt.solver,
        // Who wrote the trajectory (older attempts name only the model: the run has the policy).
        model: { policy: attempt.policy ?? store.get('runs', attempt.runId)?.policy ?? null, name: attempt.solver, base_url: attempt.baseUrl ?? store.get('runs', attempt.runId)?.baseUrl ?? null },
        statement: attempt.statement,
        messages: chatMessages(trajectory.system, trajectory.messages),
        tools: toolSchemas(trajectory.tools ?? []),
      },
    ];
  });
}
