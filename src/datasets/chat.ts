/**
 * A recorded conversation in the chat form trainers and viewers read:
 * OpenAI-style messages (system, user, assistant with `tool_calls`, `tool`
 * results) and the tools as function schemas. The `sft` export and the
 * mini-swe-agent trajectories both use this one conversion, so the two agree
 * message for message.
 */
import type { ContentBlock, Message, ToolDefinition, ToolUseBlock } from '../agent/messages.js';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; reasoning_content?: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Where a chat message came from: its place in the recorded messages, and the block for a tool result. */
export interface ChatSource {
  message: number;
  toolUseId?: string;
}

function textOf(blocks: ContentBlock[]): string {
  return blocks
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** The conversation as chat messages, each with where it came from (for callers that add to them). */
export function chatMessagesWithSource(system: string, messages: Message[]): { chat: ChatMessage; source: ChatSource | null }[] {
  const out: { chat: ChatMessage; source: ChatSource | null }[] = [{ chat: { role: 'system', content: system }, source: null }];
  for (const [index, message] of messages.entries()) {
    if (typeof message.content === 'string') {
      out.push({ chat: { role: message.role, content: message.content } as ChatMessage, source: { message: index } });
      continue;
    }
    if (message.role === 'assistant') {
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      // Reasoning a server streamed apart from the answer goes where reasoning models' chat templates read it.
      const reasoning = message.content.flatMap((b) => (b.type === 'reasoning' ? [b.text] : [])).join('\n');
      const chat: ChatMessage = {
        role: 'assistant',
        content: textOf(message.content),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}),
      };
      out.push({ chat, source: { message: index } });
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'tool_result') out.push({ chat: { role: 'tool', tool_call_id: block.tool_use_id, content: block.content }, source: { message: index, toolUseId: block.tool_use_id } });
      else if (block.type === 'text') out.push({ chat: { role: 'user', content: block.text }, source: { message: index } });
    }
  }
  return out;
}

/** The conversation in the chat form trainers read (OpenAI-style tool calls). */
export function chatMessages(system: string, messages: Message[]): ChatMessage[] {
  return chatMessagesWithSource(system, messages).map((m) => m.chat);
}

export function toolSchemas(tools: ToolDefinition[]) {
  return tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}
