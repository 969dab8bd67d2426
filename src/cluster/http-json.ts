/**
 * JSON over HTTP for the engine clients: a TCP URL (http or https) or a unix
 * socket, with a time limit. Transport failures come back as one
 * `TransportError` kind so each engine can say what to do about them.
 */
import http from 'node:http';
import https from 'node:https';

/** Where an engine listens: a base URL, or a unix socket (requests then go to http://localhost). */
export type Endpoint = { url: string } | { socketPath: string };

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, starting with '/'. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Nothing answered (refused, no such socket, timed out, reset): the request had no effect we know of. */
export class TransportError extends Error {
  constructor(
    readonly reason: string,
    readonly errno?: string,
  ) {
    super(reason);
  }
}

export function describeEndpoint(endpoint: Endpoint): string {
  return 'url' in endpoint ? endpoint.url : `unix:${endpoint.socketPath}`;
}

export function requestJson(endpoint: Endpoint, request: HttpRequest): Promise<HttpResponse> {
  const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (body) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(body.length);
  }
  const timeoutMs = request.timeoutMs ?? 20_000;
  let options: http.RequestOptions;
  let transport: typeof http | typeof https = http;
  if ('url' in endpoint) {
    const base = new URL(endpoint.url);
    const target = new URL(base.pathname.replace(/\/$/, '') + request.path, base);
    transport = target.protocol === 'https:' ? https : http;
    options = { protocol: target.protocol, hostname: target.hostname, port: target.port, path: target.pathname + target.search };
  } else {
    options = { socketPath: endpoint.socketPath, path: request.path };
  }
  return new Promise((resolve, reject) => {
    const req = transport.request({ ...options, method: request.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new TransportError(error.message, error.code));
      });
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new TransportError(`no answer within ${(timeoutMs / 1000).toFixed(0)} s`, 'ETIMEDOUT'));
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error instanceof TransportError ? error : new TransportError(transportReason(error), error.code));
    });
    req.end(body);
  });
}

function transportReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOENT':
      return 'no such socket';
    case 'EACCES':
      return 'permission denied';
    case 'ENOTFOUND':
      return 'unknown host';
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return error.message;
  }
}
