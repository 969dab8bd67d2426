/** `bugbench replay <run-id | rollout-id | trajectory.jsonl> [--speed X] [--json]` */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventStream } from '../agent/events.js';
import { readTrajectory, replay } from '../agent/trajectory.js';
import { NotFoundError, UsageError } from '../errors.js';
import { workspacePath } from '../paths.js';
import { clusterOf, reconcileClusterRun } from '../pipeline/cluster-run.js';
import { followRun } from '../pipeline/run-follow.js';
import { recoverAbandoned } from '../store/recover.js';
import { openStore } from '../store/store.js';
import { parseFlags } from './args.js';
import { rolloutLine, tagOf } from './rollout-lines.js';
import type { CommandModule } from './command.js';

/** The trajectory files a reference names: a file, a rollout id, or every rollout of a run. */
export function findTrajectories(ref: string): string[] {
  if (ref.endsWith('.jsonl') && existsSync(ref)) return [ref];
  // A path is not a run id: say what is wrong with the file.
  if (ref.endsWith('.traj.json')) {
    throw new UsageError(`${ref} is a trajectory in mini-swe-agent's format (\`bugbench export --format trajectories\`), for its inspector; replay reads bugbench's own: a run id, a rollout id or its .jsonl file under ${workspacePath('runs')}`);
  }
  if (ref.includes('/') || ref.endsWith('.jsonl')) throw new NotFoundError(`${ref}: no such trajectory file; give a run id, a rollout id or a .jsonl trajectory (see \`bugbench runs\`)`);
  const runs = workspacePath('runs');
  const runId = ref.replace(/-r\d+$/, '');
  const dir = join(runs, runId);
  if (!existsSync(dir)) throw new NotFoundError(`no run or rollout "${ref}" in ${runs}`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('.try-') && (ref === runId || f === `${ref}.jsonl`))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  if (files.length === 0) throw new NotFoundError(`no trajectory for "${ref}" in ${dir}`);
  return files.map((f) => join(dir, f));
}

const FLAGS = { speed: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('replay', args, FLAGS, 1);
  const ref = positionals[0];
  if (!ref) throw new UsageError('replay: give a run id, a rollout id or a trajectory file');
  const speed = values.speed === undefined ? 1 : values.speed === 'max' ? Infinity : Number(values.speed);
  if (!(speed > 0)) throw new UsageError(`--speed must be a positive number or "max", got "${values.speed}"`);
  // A run still going (here, in another process or as a cluster job array) is followed live from its trajectories.
  const store = openStore();
  const running = store.get('runs', ref);
  if (running?.status === 'running') {
    const until = async () => {
      store.refresh();
      recoverAbandoned(store);
      const run = store.get('runs', ref);
      if (run && clusterOf(run)) await reconcileClusterRun(store, ref).catch(() => undefined);
      return store.get('runs', ref)?.status !== 'running';
    };
    await followRun({ runId: ref }, { store, until }, (reported) => {
      if (reported.type !== 'rollout') return;
      const { rolloutId, event } = reported;
      if (values.json) process.stdout.write(`${JSON.stringify({ rollout: rolloutId, ...event })}\n`);
      else {
        const line = rolloutLine(tagOf(rolloutId), event);
        if (line) process.stdout.write(`${line}\n`);
      }
    });
    process.stdout.write(values.json ? '' : `run ${ref} ${store.get('runs', ref)?.status}\n`);
    return 0;
  }
  for (const file of findTrajectories(ref)) {
    const trajectory = readTrajectory(file);
    const stream = new EventStream();
    stream.subscribe((event) => {
      if (values.json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else {
        const tag = event.type === 'rollout-started' ? event.rolloutId : file.replace(/^.*\/(.*)\.jsonl$/, '$1');
        const line = rolloutLine(tag.replace(/^.*-(r\d+)$/, '$1'), event);
        if (line) process.stdout.write(`${line}\n`);
      }
    });
    await replay(trajectory, stream, speed);
  }
  return 0;
}

export const command: CommandModule = {
  name: 'replay',
  summary: 'play a recorded rollout back',
  usage: [
    'bugbench replay <run-id | rollout-id | trajectory.jsonl> [--speed X|max] [--json]',
  ],
  flags: FLAGS,
  run: replayCommand,
};
