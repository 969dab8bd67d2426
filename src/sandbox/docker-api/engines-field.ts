/**
 * package.json's `engines.node` against the Node.js of the image a repository
 * is built on. npm only warns (EBADENGINE) when they disagree, and the build
 * goes on; the tests then crash on load (a syntax or API the older Node lacks)
 * and injection ends with "only 1 test passes on the original" without the
 * cause. The build says it instead, and the image keeps the warning in a label
 * so `images --json` and the Images screen show it.
 */
import semver from 'semver';
import type Docker from 'dockerode';
import { LABEL_RUN, ownerLabels } from '../owner.js';

/** The range package.json asks of Node in `engines.node`, or undefined (no package.json, no field, or not JSON). */
export function nodeEnginesRange(packageJson: string | undefined): string | undefined {
  if (!packageJson) return undefined;
  try {
    const range = (JSON.parse(packageJson) as { engines?: { node?: unknown } }).engines?.node;
    return typeof range === 'string' && range.trim() ? range.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why Node `version` (as `node --version` prints it) does not meet `range`,
 * or undefined when it does or when either cannot be read.
 */
export function enginesFieldProblem(range: string, version: string): string | undefined {
  const current = semver.coerce(version);
  if (!current || semver.validRange(range) === null) return undefined;
  if (semver.satisfies(current, range, { includePrerelease: true })) return undefined;
  return `package.json's engines field needs Node ${range}, but the image has Node ${current.version}: its tests may crash on load; build --from an image with such a Node`;
}

/** The Node.js version of `image` (`node --version`), or undefined when it has none or it cannot be run. */
export async function imageNodeVersion(docker: Docker, image: string): Promise<string | undefined> {
  let container: Docker.Container | undefined;
  try {
    container = await docker.createContainer({ Image: image, Cmd: ['node', '--version'], Labels: { [LABEL_RUN]: 'build-node-version', ...ownerLabels() }, HostConfig: { NetworkMode: 'none' } });
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    if (StatusCode !== 0) return undefined;
    const logs = (await container.logs({ stdout: true, stderr: false })) as Buffer;
    return /v?\d+\.\d+\.\d+/.exec(logs.toString('utf8'))?.[0];
  } catch {
    return undefined;
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
  }
}

/** The warning for a repository about to be built on `image`: its engines field against the image's Node, or undefined. */
export async function enginesWarning(docker: Docker, image: string, packageJson: string | undefined): Promise<string | undefined> {
  const range = nodeEnginesRange(packageJson);
  if (!range) return undefined;
  const version = await imageNodeVersion(docker, image);
  return version ? enginesFieldProblem(range, version) : undefined;
}
