/**
 * The build-time step of a repo image: fetch the repository's dependencies
 * (`npm ci`, `go mod download`, `cargo fetch`, or the user's `--setup`), then
 * compile ahead where the language can. It runs once, in the build container,
 * with the host's network; the tests that run later in the image have none.
 *
 * Whatever the step leaves in /repo that git does not track (node_modules/,
 * target/) is added to .git/info/exclude, so resetting the work tree between
 * test runs (`git clean -fd`) keeps it and diffs never include it. The image
 * holds exactly the commit: files the step changed that git tracks are put
 * back, and the progress says which.
 *
 * The step trusts the certificates this machine trusts: the host's CA bundle
 * is lent to the container for the step and removed before the commit, so a
 * registry reached through a TLS-inspecting proxy works in the container as
 * it does on the host.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { delay } from '../../delay.js';
import type { Progress } from '../../progress.js';
import { lineSplitter, StepLines } from './build-output.js';
import { shellQuote } from '../shell-text.js';

/** A dependency step that runs longer than this is stopped (a registry that never answers). */
export const STEP_TIMEOUT_MS = 20 * 60_000;

/** Where the host's CA bundle is put in the build container for the step. */
export const STEP_CA_PATH = '/tmp/bugbench-host-ca.pem';

const HOST_CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

/** The certificates this machine trusts, as one PEM bundle; undefined when it has none we know of. */
export function hostCaBundle(): Buffer | undefined {
  const path = HOST_CA_BUNDLES.find((p) => existsSync(p));
  try {
    return path ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The variables that point each toolchain's HTTP client at a CA bundle. */
const CA_VARIABLES = ['NPM_CONFIG_CAFILE', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'CARGO_HTTP_CAINFO', 'GIT_SSL_CAINFO', 'PIP_CERT', 'REQUESTS_CA_BUNDLE'];

export interface BuildSteps {
  /** Fetches dependencies; its failure fails the build. */
  setup: string;
  /** Compiles ahead; its failure is only noted. */
  warm: string;
}

/** The bash script the build container runs; '' when there is nothing to do. */
export function stepScript(steps: BuildSteps): string {
  if (!steps.setup && !steps.warm) return '';
  const parts = [
    'set -e',
    'cd /repo',
    `trap 'rm -f ${STEP_CA_PATH}' EXIT`,
    `if [ -s ${STEP_CA_PATH} ]; then export ${CA_VARIABLES.map((v) => `${v}=${STEP_CA_PATH}`).join(' ')}; fi`,
  ];
  if (steps.setup) parts.push(`echo ${shellQuote(`$ ${steps.setup}`)}`, steps.setup);
  if (steps.warm) {
    parts.push(
      `echo ${shellQuote(`$ ${steps.warm}`)}`,
      `( ${steps.warm} ) || echo ${shellQuote(`note: compiling ahead failed (\`${steps.warm}\`); the first test run will compile instead`)}`,
    );
  }
  parts.push(
    // What the step made stays out of git's sight: kept by `git clean -fd`, never part of a diff.
    "git -c core.quotePath=false ls-files --others --directory --exclude-standard | sed 's|^|/|' >> .git/info/exclude",
    'changed="$(git -c core.quotePath=false diff --name-only HEAD)"',
    'if [ -n "$changed" ]; then echo "note: the step changed tracked files, put back as committed: $(echo $changed)"; git checkout -q HEAD -- .; fi',
  );
  return parts.join('\n');
}

export interface StepOutcome {
  exitCode: number;
  /** The last lines of output, for an error message. */
  tail: string;
  timedOut: boolean;
}

/**
 * Starts the (created, not yet started) build container, whose command is the
 * step script, shows its output line by line and waits for it to end.
 */
export async function runBuildStep(docker: Docker, container: Docker.Container, progress: Progress, timeoutMs = STEP_TIMEOUT_MS): Promise<StepOutcome> {
  const lines = new StepLines(25, 400);
  const split = lineSplitter((text) => {
    const shown = lines.filter(text);
    if (shown !== undefined) progress(`  ${shown}`);
  });
  const stream = (await container.attach({ stream: true, stdout: true, stderr: true })) as NodeJS.ReadableStream;
  const output = new PassThrough();
  docker.modem.demuxStream(stream, output, output);
  output.on('data', (chunk: Buffer) => split.push(chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => stream.on('end', resolve));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    container.kill().catch(() => undefined);
  }, timeoutMs);
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    // The attach stream may still hold the last lines when wait returns.
    await Promise.race([ended, delay(2000)]);
    split.flush();
    return { exitCode: StatusCode, tail: lines.lastLines(), timedOut };
  } finally {
    clearTimeout(timer);
  }
}
