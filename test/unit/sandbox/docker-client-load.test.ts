/**
 * dockerode's BuildKit session support (gRPC, protobuf) is loaded only when a
 * build uses it (#30 item 6: a quarter of a second off every command's start).
 * Run in a child process on the built client, so no other test has loaded
 * dockerode before.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { DIST } from '../../helpers/cli.js';

const CHILD = `
import { createRequire } from 'node:module';
const client = ${JSON.stringify(join(DIST, 'sandbox', 'docker-api', 'client.js'))};
const { dockerClient } = await import(client);
const require = createRequire(client);
const grpcLoaded = () => Object.keys(require.cache).some((path) => path.includes('/@grpc/grpc-js/'));
dockerClient('unix:///nonexistent.sock');
const atStart = grpcLoaded();
const withSession = require('dockerode/lib/session.js');
const answer = await new Promise((resolve) => withSession({ modem: { dial: (_opts, callback) => callback(new Error('no engine here')) } }, {}, (error) => resolve(error.message)));
console.log(JSON.stringify({ atStart, answer, afterCall: grpcLoaded() }));
`;

describe("dockerode's BuildKit session", () => {
  it('is not loaded with the client, and loads and answers on its first call', async () => {
    const child = await execa('node', ['--input-type=module', '-e', CHILD]);
    expect(JSON.parse(child.stdout)).toEqual({ atStart: false, answer: 'no engine here', afterCall: true });
  });
});
