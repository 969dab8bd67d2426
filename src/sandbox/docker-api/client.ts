/**
 * The dockerode client of a Docker-API engine (Docker or Podman) at an
 * address: `unix:///…` or `tcp://…`, one client per address.
 */
import { createRequire, Module } from 'node:module';
import type Docker from 'dockerode';
import { engineHosts } from '../engine-config.js';
import { isNotFound } from '../engine-errors.js';

const require = createRequire(import.meta.url);

/**
 * A CommonJS module put into the require cache as a stand-in function that
 * loads the real one (itself a function) on its first call.
 */
function deferModule(path: string): void {
  if (require.cache[path]) return;
  let real: ((...args: unknown[]) => unknown) | undefined;
  const standIn = new Module(path);
  standIn.filename = path;
  standIn.loaded = true;
  standIn.exports = function deferred(...args: unknown[]) {
    if (!real) {
      delete require.cache[path];
      real = require(path) as (...args: unknown[]) => unknown;
      require.cache[path] = standIn;
    }
    return real(...args);
  };
  require.cache[path] = standIn;
}

/**
 * dockerode loads its BuildKit session module (gRPC and protobuf: about half
 * of its load time) and docker-modem its SSH transport (ssh2) whether or not
 * they are used, and bugbench neither builds with BuildKit nor reaches an
 * engine over ssh://. Each is deferred to its first call, so a command does
 * not pay a quarter to half a second of start-up for them.
 */
export function deferUnusedDockerModules(): void {
  const dockerode = require.resolve('dockerode');
  const fromDockerode = createRequire(dockerode);
  deferModule(fromDockerode.resolve('./session.js'));
  deferModule(createRequire(fromDockerode.resolve('docker-modem')).resolve('./ssh.js'));
}

deferUnusedDockerModules();
const DockerClient = require('dockerode') as typeof import('dockerode');

/** Options for dockerode from a host string such as `unix:///run/docker.sock` or `tcp://127.0.0.1:2375`. */
export function dockerOptions(host: string): Docker.DockerOptions {
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  if (host.startsWith('/')) return { socketPath: host };
  const url = new URL(host.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375), protocol: 'http' };
}

const clients = new Map<string, Docker>();

export function dockerClient(host: string = engineHosts()[0]!): Docker {
  let client = clients.get(host);
  if (!client) {
    client = new DockerClient(dockerOptions(host));
    clients.set(host, client);
  }
  return client;
}

/** How long an engine that answered its ping may take over a question about itself (a loaded Podman is slow, not dead). */
export const DESCRIBE_TIMEOUT_MS = 30_000;

/** True when the engine has an image with this tag or id. */
export async function imageExists(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

