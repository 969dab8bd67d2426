/**
 * The dockerode client of a Docker-API engine (Docker or Podman) at an
 * address: `unix:///…` or `tcp://…`, one client per address.
 */
import Docker from 'dockerode';
import { engineHosts } from '../engine-config.js';
import { isNotFound } from '../engine-errors.js';

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
    client = new Docker(dockerOptions(host));
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

