/**
 * An engine with a fault, for the tests of engine failures: a unix socket
 * that passes every request through to the real Docker engine but for the
 * fault asked for.
 * - `refuseCreates`: container creation is answered with HTTP 500 and a
 *   message like Podman's. It stands for an engine set up wrong (no
 *   catatonit, limits it cannot grant): listing, images and pings all work,
 *   containers never do. `varying` makes each refusal's words differ, as an
 *   engine that fails in a new way every time.
 * - `slowInfoMs`: GET /info is answered that much later, as a loaded Podman
 *   does (it walks its storage); everything else works.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ENGINE_HOST } from '../../src/sandbox/engine-config.js';

const UPSTREAM = DEFAULT_ENGINE_HOST.slice('unix://'.length);
export const REFUSAL = 'crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied';
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

export interface FaultyEngine {
  host: string;
  /** How many creates it refused. */
  refused(): number;
  close(): Promise<void>;
}

export interface Faults {
  refuseCreates?: boolean;
  varying?: boolean;
  message?: string;
  slowInfoMs?: number;
}

export async function startFaultyEngine(faults: Faults): Promise<FaultyEngine> {
  const socket = join(mkdtempSync(join(tmpdir(), 'bugbench-faulty-')), 'engine.sock');
  let refused = 0;
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request({ socketPath: UPSTREAM, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: error.message }));
    });
    req.pipe(upstream);
  };
  const server: Server = createServer((req, res) => {
    if (faults.slowInfoMs !== undefined && /^(\/v[\d.]+)?\/info/.test(req.url ?? '')) {
      setTimeout(() => pass(req, res), faults.slowInfoMs);
      return;
    }
    if (faults.refuseCreates && req.method === 'POST' && /^(\/v[\d.]+)?\/containers\/create/.test(req.url ?? '')) {
      req.resume();
      const words = faults.varying ? ` (${WORDS[refused % WORDS.length]})` : '';
      refused++;
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: `${faults.message ?? REFUSAL}${words}`, response: 500 }));
      return;
    }
    pass(req, res);
  });
  // Hijacked streams (exec, attach) go through as raw bytes.
  server.on('upgrade', (req, client, head) => {
    const upstream = connect(UPSTREAM, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`), '', ''];
      upstream.write(lines.join('\r\n'));
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    host: `unix://${socket}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
