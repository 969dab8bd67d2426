/**
 * Token counts bugbench makes itself, with o200k_base (gpt-tokenizer): the
 * worst case of a request before it goes out, and the usage of a server that
 * reports none. The tables load once, on first use.
 */
import type { ModelRequest } from './model.js';
import type { Message } from './messages.js';

export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => (text: string) => countTokens(text, { disallowedSpecial: new Set() }));
  return loading;
}

/**
 * Every server tokenizes with its own vocabulary and wraps each message in its
 * chat template, so a count made here is raised by this factor and a few
 * tokens a message before a budget relies on it; a request with tools also
 * gets the instructions a server puts around them (Anthropic documents a few
 * hundred tokens of tool-use system prompt; chat templates do alike).
 */
export const INPUT_MARGIN = 1.2;
const PER_MESSAGE = 8;
const PER_REQUEST = 16;
export const TOOLS_PREAMBLE = 600;

/** A message's count is kept while the message lives: a conversation is counted once, plus its new turns. */
const counted = new WeakMap<Message, number>();

/** The input of a request as a server might count it at most: system prompt, tools and their preamble, and the conversation as JSON, with the margin. */
export function requestTokens(request: ModelRequest, count: TokenCounter): number {
  let tokens = count(request.system) + (request.tools.length > 0 ? count(JSON.stringify(request.tools)) + TOOLS_PREAMBLE : 0);
  for (const message of request.messages) {
    let n = counted.get(message);
    if (n === undefined) {
      n = count(JSON.stringify(message.content));
      counted.set(message, n);
    }
    tokens += n + PER_MESSAGE;
  }
  return Math.ceil(tokens * INPUT_MARGIN) + PER_REQUEST;
}
