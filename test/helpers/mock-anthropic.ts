/**
 * A small Messages API server on 127.0.0.1 that answers with scripted
 * server-sent events, so the real SDK (transport, retries, streaming) is
 * exercised without the network. Each POST /v1/messages takes the next
 * scripted answer: a stream of events (optionally broken off or ending in an
 * error event) or a plain HTTP error.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export type ScriptedAnswer =
  | { kind: 'stream'; events: SseEvent[]; delayMs?: number }
  | { kind: 'http-error'; status: number; errorType: string; message: string }
  /** Made from the request when it comes (e.g. an answer as long as max_tokens allows). */
  | { kind: 'dynamic'; answer: (body: Record<string, unknown>) => ScriptedAnswer };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface TurnSpec {
  text?: string;
  tools?: { id: string; name: string; input: unknown }[];
  /** Into how many input_json_delta pieces each tool input is split. */
  jsonPieces?: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** The events of one assistant turn, as the API streams it. */
export function turnEvents(spec: TurnSpec): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: `msg_${Math.random().toString(36).slice(2, 10)}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: spec.inputTokens ?? 100,
            output_tokens: 1,
            cache_read_input_tokens: spec.cacheReadTokens ?? 0,
            cache_creation_input_tokens: spec.cacheWriteTokens ?? 0,
          },
        },
      },
    },
  ];
  let index = 0;
  if (spec.text) {
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
    for (const piece of spec.text.match(/.{1,12}/gs) ?? []) {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  for (const tool of spec.tools ?? []) {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } },
    });
    const json = JSON.stringify(tool.input);
    const pieces = Math.max(1, spec.jsonPieces ?? 4);
    const size = Math.ceil(json.length / pieces);
    for (let i = 0; i < json.length; i += size) {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + size) } } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: spec.tools?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: spec.outputTokens ?? 50 },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function streamOf(spec: TurnSpec, delayMs = 0): ScriptedAnswer {
  return { kind: 'stream', events: turnEvents(spec), delayMs };
}

export class MockAnthropic {
  readonly requests: RecordedRequest[] = [];
  private server?: Server;

  constructor(
    private readonly script: ScriptedAnswer[],
    private readonly apiKey = 'sk-ant-test-key-0000',
  ) {}

  get url(): string {
    const address = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  get messageRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/v1/messages'));
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
        this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        const error = (status: number, type: string, message: string) => {
          res.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': '10', 'x-should-retry': 'true' });
          res.end(JSON.stringify({ type: 'error', error: { type, message } }));
        };
        const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
        if (key !== this.apiKey) return error(401, 'authentication_error', 'invalid API key');
        if (req.method === 'GET' && req.url?.startsWith('/v1/models/')) {
          const id = decodeURIComponent(req.url.slice('/v1/models/'.length).split('?')[0]!);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' }));
        }
        if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return error(404, 'not_found_error', `no route ${req.url}`);
        let answer = this.script.shift();
        while (answer?.kind === 'dynamic') answer = answer.answer(body ?? {});
        if (!answer) return error(500, 'api_error', 'the script has no more answers');
        if (answer.kind === 'http-error') return error(answer.status, answer.errorType, answer.message);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        void (async () => {
          for (const event of answer.events) {
            if (event.event === 'cut') {
              res.socket?.destroy();
              return;
            }
            res.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
            if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
          }
          res.end();
        })();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
