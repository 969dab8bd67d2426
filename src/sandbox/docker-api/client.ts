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
 * dockerode loads its BuildKit session module (gRPC and protobuf: about half
 * of its load time, a quarter of a second of every command's start) whether
 * or not a build asks for BuildKit, and bugbench's builds never do. The
 * module goes into the require cache first as a stand-in that loads the real
 * one on its first call, so a command pays for it only if it is used.
 */
export function deferBuildkitSession(): void {
  const path = require.resolve('dockerode/lib/session.js');
  if (require.cache[path]) return;
  let real: ((...args: unknown[]) => unknown) | undefined;
  const standIn = new Module(path);
  standIn.filename = path;
  standIn.loaded = true;
  standIn.exports = function withSession(...args: unknown[]) {
    if (!real) {
      delete require.cache[path];
      real = require(path) as (...args: unknown[]) => unknown;
      require.cache[path] = standIn;
    }
    return real(...args);
  };
  require.cache[path] = standIn;
}

deferBuildkitSession();
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

