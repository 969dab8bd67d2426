/**
 * How an exported dataset reaches a training job: its name in the job's
 * folder (a JSONL file, or a folder for `harbor`), and the stand-in trainer a
 * job runs when the researcher gave no command, which reads the dataset the
 * way a trainer would and fails if it cannot.
 */
import { DRY_RUN_COMMAND } from './command-template.js';
import type { DatasetFormat } from './types.js';
import { FOLDER_FORMATS } from '../datasets/formats.js';

/** The dataset's file or folder name inside the job's folder. */
export function jobDatasetName(format: DatasetFormat): string {
  return FOLDER_FORMATS.includes(format) ? `dataset-${format}` : `dataset-${format}.jsonl`;
}

/** A stand-in trainer for a folder of Harbor tasks: every task folder must hold what Harbor loads, and task.toml must parse. */
export const HARBOR_DRY_RUN_COMMAND = `python3 -c 'import os, sys
path, fmt = sys.argv[1], sys.argv[2]
try:
    import tomllib
except ImportError:
    tomllib = None
tasks = sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))
for task in tasks:
    for name in ("task.toml", "instruction.md", "environment/Dockerfile", "tests/test.sh"):
        if not os.path.isfile(os.path.join(path, task, name)):
            sys.exit("task %s of %s has no %s" % (task, path, name))
    if tomllib is not None:
        with open(os.path.join(path, task, "task.toml"), "rb") as config:
            try:
                tomllib.load(config)
            except ValueError as e:
                sys.exit("task.toml of %s does not parse: %s" % (task, e))
print("dry run: read %d %s task(s) from %s, each with task.toml, instruction.md, environment/Dockerfile and tests/test.sh" % (len(tasks), fmt, path))' {dataset} {format}`;

/** The command a job runs when none was given. */
export function dryRunCommand(format: DatasetFormat): string {
  return format === 'harbor' ? HARBOR_DRY_RUN_COMMAND : DRY_RUN_COMMAND;
}
