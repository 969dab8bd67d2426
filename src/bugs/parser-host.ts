/**
 * Where an artifact's parser runs when the image has no python3 (Go's
 * official images, Multi-SWE-bench's): a container of bugbench's base on the
 * same engine, made on first need and kept for the bug's runs, fed each log.
 * The parser reads only its standard input, so where it runs changes nothing
 * of what it reads; the check says where it ran.
 */
import { randomUUID } from 'node:crypto';
import { openSandbox } from '../sandbox/engine-table.js';
import { BASE_IMAGE } from '../sandbox/image-names.js';
import type { ContainerEngine } from '../sandbox/port.js';
import { shellQuote, type ExecResult, type Sandbox } from '../sandbox/sandbox.js';

export class ParserHost {
  private sandbox?: Promise<Sandbox>;

  constructor(
    private readonly setup: { runId: string; parser: string; engine?: ContainerEngine },
  ) {}

  /** Where the parser runs, for the check's words. */
  get where(): string {
    return `in a container of ${BASE_IMAGE}, as the image has no python3`;
  }

  /** Runs the parser over `log` within `timeoutSec`; its stdout is the map, as in the bug's own container. */
  async parse(log: Buffer, timeoutSec: number, maxOutputBytes: number): Promise<ExecResult> {
    this.sandbox ??= openSandbox({ image: BASE_IMAGE, runId: `${this.setup.runId}-parser`, engine: this.setup.engine });
    const sandbox = await this.sandbox;
    const dir = `/tmp/parse-${randomUUID()}`;
    await sandbox.writeFiles([
      { path: `${dir}/test_parser.py`, content: this.setup.parser },
      { path: `${dir}/test.log`, content: log },
    ]);
    const quoted = shellQuote(dir);
    return sandbox.exec(`cd ${quoted} && timeout -s KILL ${timeoutSec} python3 test_parser.py < test.log; rc=$?; cd / && rm -rf ${quoted}; exit $rc`, {
      timeoutMs: (timeoutSec + 30) * 1000,
      maxOutputBytes,
    });
  }

  async close(): Promise<void> {
    const sandbox = await this.sandbox?.catch(() => undefined);
    await sandbox?.remove().catch(() => undefined);
  }
}
