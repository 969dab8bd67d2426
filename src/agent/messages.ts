/** The conversation as the Messages API shapes it; every policy reads and writes this form (the openai policy maps it to chat messages and back). */

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/**
 * The model's reasoning, as an OpenAI-compatible server streams it apart from
 * the answer (`reasoning_content` or `reasoning`). Kept in the transcript and
 * the SFT export; never sent back to a server.
 */
export interface ReasoningBlock {
  type: 'reasoning';
  text: string;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ReasoningBlock;

export interface Message {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export function toolResults(message: Message): ToolResultBlock[] {
  return typeof message.content === 'string' ? [] : message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}
