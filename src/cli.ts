/**
 * The `bugbench` command line: reads the command, hands it to its module, and
 * turns errors into one line on stderr and an exit code (2 for bad usage, 75
 * when the container engine failed, 130 when cancelled, 1 for everything else).
 */
import { readFileSync } from 'node:fs';
import { POLICIES } from './agent/policy-names.js';
import { BugbenchError, UsageError, errorMessage } from './errors.js';

export type Command = (args: string[]) => Promise<number>;

/** "anthropic|openai|offline": every policy, from where the policies are named. */
const POLICY_CHOICES = POLICIES.join('|');

/** Each command's module is loaded only when it runs, so start-up stays short. */
const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string; synopsis: string }> = {
  tui: { load: async () => (await import('./commands/tui.js')).tuiCommand, summary: 'open the workbench', synopsis: 'bugbench tui' },
  doctor: {
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
    summary: 'check (and with --fix, set up) the engine and images',
    synopsis: 'bugbench doctor [--fix] [--json]',
  },
  images: {
    load: async () => (await import('./commands/images.js')).imagesCommand,
    summary: 'list repo images; `images build <dir>` builds one, `images add IMAGE` adopts one as it is',
    synopsis: 'bugbench images [--json]\nbugbench images build <git-repo-dir> [--tag T] [--from IMAGE] [--setup CMD] [--json]\nbugbench images add IMAGE [--root PATH] [--user U] [--test-cmd CMD] [--again] [--json]',
  },
  inject: {
    load: async () => (await import('./commands/inject.js')).injectCommand,
    summary: 'run injection rollouts on an image and check what they submit',
    synopsis:
      `bugbench inject --image T --strategy removal|history|removal+history|direct|featadd|buginstruct [--policy ${POLICY_CHOICES}] [--model M]\n` +
      '  [-n N] [--concurrency C] [--seed X] [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD]\n' +
      '  [--min-passing N] [--min-changed-files N] [--min-failing N] [--timeout S] [--buggy-runs N] [--max-weakened-tests N]\n' +
      '  [--cluster slurm --tasks T] [--json]\n' +
      'bugbench inject --images FILE (or --image T1 --image T2 …) --strategy S …   (one run over a corpus: rollout i on image (seed + i) mod k)\n' +
      'bugbench inject --resume RUN-ID [--tasks T] [--json]   (finishes an interrupted or cancelled run with its own options)',
  },
  runs: {
    load: async () => (await import('./commands/runs.js')).runsCommand,
    summary: 'list the runs of the workspace (and which can be resumed)',
    synopsis: 'bugbench runs [--json]',
  },
  import: {
    load: async () => (await import('./commands/import.js')).importCommand,
    summary: 'add a bug artifact made elsewhere to the library and check it',
    synopsis: 'bugbench import <artifact-dir> [--image T] [--json]',
  },
  bugs: {
    load: async () => (await import('./commands/bugs.js')).bugsCommand,
    summary: 'list the bugs of the workspace',
    synopsis: 'bugbench bugs [--status S] [--image T] [--strategy S] [--order N] [--json]',
  },
  show: {
    load: async () => (await import('./commands/show.js')).showCommand,
    summary: 'one bug in full: record, checks, tests, reviews, diffs',
    synopsis: 'bugbench show <bug-id> [--json]',
  },
  accept: {
    load: async () => (await import('./commands/review.js')).acceptCommand,
    summary: 'accept a valid bug for the dataset',
    synopsis: 'bugbench accept <bug-id> [--reason R] [--json]',
  },
  reject: {
    load: async () => (await import('./commands/review.js')).rejectCommand,
    summary: 'reject a bug, with the reason',
    synopsis: 'bugbench reject <bug-id> --reason R [--json]',
  },
  export: {
    load: async () => (await import('./commands/export.js')).exportCommand,
    summary: 'write the accepted bugs as a dataset (JSONL, or Harbor / trajectory folders)',
    synopsis:
      'bugbench export --format swebench|sft|rl --out FILE|- [--status S] [--image T] [--include-scripted] [--json]   (- is standard output)\n' +
      'bugbench export --format harbor|trajectories --out DIR [--status S] [--image T] [--rollout ID] [--json]',
  },
  'verify-export': {
    load: async () => (await import('./commands/verify-export.js')).verifyExportCommand,
    summary: "rerun an export's instances and name every test that differs from its record",
    synopsis: 'bugbench verify-export <file.jsonl> [--runs N] [--logs DIR] [--json]   (swebench or rl export; exit 1 if any differs)',
  },
  check: {
    load: async () => (await import('./commands/check.js')).checkCommand,
    summary: 'run the nine consistency checks on a bug or artifact folder',
    synopsis:
      'bugbench check <bug-id | artifact-dir> [--image T] [--all] [--min-passing N] [--min-changed-files N]\n' +
      '  [--min-failing N] [--timeout S] [--parallel N] [--fresh-containers] [--json]',
  },
  solve: {
    load: async () => (await import('./commands/solve.js')).solveCommand,
    summary: 'run solver attempts on a bug: solve rate and rewards',
    synopsis:
      `bugbench solve <bug-id> [-k K] [--policy ${POLICY_CHOICES}] [--solver oracle|partial|noop|mix] [--statement template|report]\n` +
      '  [--alpha A] [--concurrency C] [--seed X] [--model M] [--max-steps N] [--max-tokens N] [--budget USD] [--cluster slurm [--tasks T]] [--json]',
  },
  'higher-order': {
    load: async () => (await import('./commands/higher-order.js')).higherOrderCommand,
    summary: "turn a bug's failed solver attempts into order-2 bugs and check them",
    synopsis: 'bugbench higher-order <bug-id> [--json]',
  },
  analyse: {
    load: async () => (await import('./commands/analyse.js')).analyseCommand,
    summary: "write a valid bug's report, category and patch statistics (BugPilot)",
    synopsis: `bugbench analyse <bug-id> [--policy ${POLICY_CHOICES}] [--model M] [--json]`,
  },
  eval: {
    load: async () => (await import('./commands/eval.js')).evalCommand,
    summary: 'evaluate a candidate patch against a bug',
    synopsis: 'bugbench eval <bug-id | artifact-dir> --patch FILE [--image T] [--timeout S] [--json]',
  },
  queue: {
    load: async () => (await import('./commands/queue.js')).queueCommand,
    summary: 'send the accepted bugs to a training job on a cluster engine, and follow it',
    synopsis:
      'bugbench queue submit --engine slurm|ray|local --format swebench|sft|rl [--status S] [--command TEMPLATE]\n' +
      '  [--gpus N] [--cpus N] [--memory MB] [--time-limit MIN] [--json]\n' +
      'bugbench queue list [--json]\nbugbench queue status <job-id> [--json]\nbugbench queue logs <job-id> [--follow] [--tail BYTES]\nbugbench queue cancel <job-id>',
  },
  cancel: {
    load: async () => (await import('./commands/cancel.js')).cancelCommand,
    summary: 'stop a run from any terminal (a cluster run: its whole job array)',
    synopsis: 'bugbench cancel <run-id>',
  },
  'cluster-task': {
    load: async () => (await import('./commands/cluster-task.js')).clusterTaskCommand,
    summary: 'run one task of a cluster run (Slurm starts it for `inject --cluster`)',
    synopsis: 'bugbench cluster-task <run-id> --task N',
  },
  replay: {
    load: async () => (await import('./commands/replay.js')).replayCommand,
    summary: 'play a recorded rollout back',
    synopsis: 'bugbench replay <run-id | rollout-id | trajectory.jsonl> [--speed X|max] [--json]',
  },
};

export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`);
  return ['usage: bugbench <command> [options]', '', 'commands:', ...rows, '', 'Add --help after a command for its options; `bugbench --version` prints the version.'].join('\n');
}

/** The version of this package, from its package.json. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** A reader that stops reading (`bugbench runs | head -1`) ends the output, not the program with a stack trace. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`bugbench ${version()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (command && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${command.summary}\n\n${command.synopsis}\n`);
    return 0;
  }
  try {
    if (!command) throw new UsageError(`unknown command "${name}"; run \`bugbench --help\` for the list`);
    return await (await command.load())(rest);
  } catch (error) {
    const message = error instanceof BugbenchError ? error.message : `unexpected error: ${errorMessage(error)}`;
    process.stderr.write(`bugbench: ${message}\n`);
    if (!(error instanceof BugbenchError) && process.env.BUGBENCH_DEBUG) console.error(error);
    return error instanceof BugbenchError ? error.exitCode : 1;
  }
}
