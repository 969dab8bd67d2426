/**
 * The bwrap engine kind for a test file: a folder of images packed with
 * `bugbench images pack`, one state folder (so each image is unpacked once
 * for the whole file), and `bugbench check` run against them with
 * DOCKER_HOST=bwrap:///DIR as the Slurm job user (bwrap-user.ts), with a
 * workspace of its own: nothing is shared with the Docker runs, not even the
 * original run's cache.
 */
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { removeTree } from '../../src/sandbox/bwrap/tools.js';
import { bwrapPlace, giveToUser, type BwrapPlace } from './bwrap-user.js';
import type { JsonReport } from './check-report.js';
import { bugbench } from './cli.js';

export class PackedEngine {
  readonly dir = mkdtempSync(join(tmpdir(), 'bb-packed-'));
  private place?: Promise<BwrapPlace>;
  /** Packs under way: the folder is removed only once they end (a run filtered to no bwrap case never awaits its pack). */
  private readonly packing = new Set<Promise<number>>();

  private where(): Promise<BwrapPlace> {
    this.place ??= bwrapPlace(this.dir);
    return this.place;
  }

  /** Packs `tag` (an image of the Docker engine) into the folder; returns the seconds it took. */
  pack(tag: string): Promise<number> {
    const packing = this.packNow(tag);
    this.packing.add(packing);
    void packing.then(
      () => this.packing.delete(packing),
      () => this.packing.delete(packing),
    );
    return packing;
  }

  private async packNow(tag: string): Promise<number> {
    const { images } = await this.where();
    const packed = await bugbench(['images', 'pack', tag, '--out', `${images}/`, '--json'], { timeout: 600_000 });
    expect(packed.exitCode, packed.stderr).toBe(0);
    return (JSON.parse(packed.stdout) as { seconds: number }).seconds;
  }

  /** `bugbench check DIR --json` on this engine, as the job user; the artifact is handed to that user first. */
  async check(artifact: string, ...flags: string[]): Promise<JsonReport> {
    const place = await this.where();
    chmodSync(dirname(artifact), 0o755);
    await giveToUser(artifact);
    const result = await place.cli(['check', artifact, '--json', ...flags]);
    if (result.stdout.trim() === '') throw new Error(`bugbench check on bwrap://${place.images} printed nothing (exit ${result.exitCode}): ${result.stderr.slice(-1000)}`);
    return JSON.parse(result.stdout) as JsonReport;
  }

  /** The sandboxes the checks left behind (none, once they ended). */
  async sandboxesLeft(): Promise<string[]> {
    return readdirSync(join((await this.where()).state, 'sandboxes'));
  }

  /** Removes the packed images and the state, whatever their modes (unpacked images hold read-only folders). */
  async remove(): Promise<void> {
    await Promise.allSettled([...this.packing]);
    await removeTree(this.dir);
  }
}
