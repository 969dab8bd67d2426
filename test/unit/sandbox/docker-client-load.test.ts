/**
 * dockerode's BuildKit session support (gRPC, protobuf) and docker-modem's
 * SSH transport (ssh2) are loaded only when used (#30 item 6: a quarter of a second off every command's start).
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
const loaded = (name) => Object.keys(require.cache).some((path) => path.includes('/node_modules/' + name + '/'));
const grpcLoaded = () => loaded('@grpc/grpc-js');
dockerClient('unix:///nonexistent.sock');
const atStart = grpcLoaded() || loaded('ssh2');
const withSession = require('dockerode/lib/session.js');
const answer = await new Promise((resolve) => withSession({ modem: { dial: (_opts, callback) => callback(new Error('no engine here')) } }, {}, (error) => resolve(error.message)));
const ssh = createRequire(require.resolve('dockerode'))('docker-modem/lib/ssh.js');
const agent = ssh({ host: 'nowhere.invalid' });
console.log(JSON.stringify({ atStart, answer, afterCall: grpcLoaded(), ssh: loaded('ssh2') && typeof agent.createConnection === 'function' }));
`;

describe("dockerode's BuildKit session and SSH transport", () => {
  it('are not loaded with the client, and load and answer on their first call', async () => {
    const child = await execa('node', ['--input-type=module', '-e', CHILD]);
    expect(JSON.parse(child.stdout)).toEqual({ atStart: false, answer: 'no engine here', afterCall: true, ssh: true });
  });
});
