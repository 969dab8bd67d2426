/**
 * The bwrap engine kind for a test file: a folder of images packed with
 * `bugbench images pack`, one state folder (so each image is unpacked once
 * for the whole file), and `bugbench check` run against them with
 * DOCKER_HOST=bwrap:///DIR as the Slurm job user `bugbench` (as this process
 * when it is not root), with a workspace of its own: nothing is shared with
 * the Docker runs, not even the original run's cache.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { removeTree } from '../../src/sandbox/bwrap/tools.js';
import type { JsonReport } from './check-report.js';
import { BIN, bugbench } from './cli.js';

/** The Slurm job user (scripts/slurm-up): not root. */
const USER = 'bugbench';
const asRoot = process.getuid?.() === 0;

export class PackedEngine {
  readonly dir = mkdtempSync(join(tmpdir(), 'bb-packed-'));
  readonly images = join(this.dir, 'images');
  readonly state = join(this.dir, 'state');
  readonly address = `bwrap://${this.images}`;

  constructor() {
    mkdirSync(this.images);
    mkdirSync(this.state);
    for (const path of [this.dir, this.images]) chmodSync(path, 0o755);
  }

  /** Packs `tag` (an image of the Docker engine) into the folder; returns the seconds it took. */
  async pack(tag: string): Promise<number> {
    if (asRoot) await execa('chown', [USER, this.state]);
    const packed = await bugbench(['images', 'pack', tag, '--out', `${this.images}/`, '--json'], { timeout: 600_000 });
    expect(packed.exitCode, packed.stderr).toBe(0);
    return (JSON.parse(packed.stdout) as { seconds: number }).seconds;
  }

  /** `bugbench check DIR --json` on this engine, as the job user; the artifact is handed to that user first. */
  async check(artifact: string, ...flags: string[]): Promise<JsonReport> {
    const argv = ['node', BIN, 'check', artifact, '--json', ...flags];
    if (asRoot) {
      chmodSync(dirname(artifact), 0o755);
      await execa('chown', ['-R', USER, artifact]);
      argv.unshift('runuser', '-u', USER, '--');
    }
    const env = { PATH: process.env.PATH ?? '', BUGBENCH_HOME: join(this.state, 'home'), BUGBENCH_BWRAP_STATE: this.state, DOCKER_HOST: this.address };
    const result = await execa(argv[0]!, argv.slice(1), { reject: false, extendEnv: false, env, timeout: 300_000 });
    if (result.stdout.trim() === '') throw new Error(`bugbench check on ${this.address} printed nothing (exit ${result.exitCode}): ${result.stderr.slice(-1000)}`);
    return JSON.parse(result.stdout) as JsonReport;
  }

  /** The sandboxes a check left behind (none, once it ended). */
  sandboxesLeft(): string[] {
    return readdirSync(join(this.state, 'sandboxes'));
  }

  /** Removes the packed images and the state, whatever their modes (unpacked images hold read-only folders). */
  remove(): Promise<void> {
    return removeTree(this.dir);
  }
}
