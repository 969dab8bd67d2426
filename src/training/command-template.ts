/**
 * The training command is a template the researcher writes once, e.g.
 *
 *   torchrun --nproc_per_node {gpus} train_sft.py --data {dataset} --output runs/{job_id}
 *
 * Each placeholder becomes one shell word: values are single-quoted, and
 * `{job_id}` (known only once the engine starts the job) becomes
 * "${BUGBENCH_JOB_ID}". So do not put placeholders inside quotes of your own.
 * `{{` and `}}` stand for literal braces and the shell's `${NAME}` is left as it
 * is (so are braces around anything but a lower-case word, such as the
 * shell's `{a,b}`). A `{word}` that is not a placeholder is an error, found before
 * anything is exported or submitted, so a typo never reaches the cluster.
 *
 * Every engine also gives the command the same values as environment variables
 * (`jobEnvironment`), for scripts that would rather read those.
 */
import { JobSpecError } from '../errors.js';
import type { EngineName, JobSpec } from './types.js';

export const PLACEHOLDERS = ['dataset', 'format', 'kind', 'name', 'key', 'workdir', 'gpus', 'cpus', 'job_id'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** A stand-in trainer: reads the dataset and fails unless every line is a JSON object. */
export const DRY_RUN_COMMAND = `python3 -c 'import json, sys
path, fmt, n = sys.argv[1], sys.argv[2], 0
for i, line in enumerate(open(path, encoding="utf-8"), 1):
    if not line.strip():
        continue
    try:
        record = json.loads(line)
    except ValueError as e:
        sys.exit("line %d of %s is not JSON: %s" % (i, path, e))
    if not isinstance(record, dict):
        sys.exit("line %d of %s is not a JSON object" % (i, path))
    n += 1
print("dry run: read %d %s record(s) from %s, every line a JSON object" % (n, fmt, path))' {dataset} {format}`;

/** Quotes a value as one POSIX shell word. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function placeholderValues(spec: JobSpec): Record<Placeholder, string> {
  return {
    dataset: shellQuote(spec.dataset.path),
    format: shellQuote(spec.dataset.format),
    kind: shellQuote(spec.kind),
    name: shellQuote(spec.name),
    key: shellQuote(spec.key),
    workdir: shellQuote(spec.workdir),
    gpus: String(spec.resources?.gpus ?? 0),
    cpus: String(spec.resources?.cpus ?? 1),
    job_id: '"${BUGBENCH_JOB_ID}"',
  };
}

/** Fills the template's placeholders with `value`; throws JobSpecError naming an unknown placeholder. */
function fill(template: string, value: (name: Placeholder) => string): string {
  return template.replace(/\{\{|\}\}|\$\{[^{}]*\}|\{([a-z_]+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    // The shell's own ${NAME} is left to the shell.
    if (match.startsWith('$')) return match;
    if (name !== undefined && (PLACEHOLDERS as readonly string[]).includes(name)) return value(name as Placeholder);
    throw new JobSpecError(
      `the training command has an unknown placeholder {${name}}; known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')} (write {{ and }} for literal braces)`,
    );
  });
}

/** Throws JobSpecError if the template names a placeholder there is no value for: checked before anything is exported or submitted. */
export function checkTemplate(template: string): void {
  fill(template, () => '');
}

/** The command with its placeholders filled; throws JobSpecError naming an unknown placeholder. */
export function fillCommand(template: string, spec: JobSpec): string {
  const values = placeholderValues(spec);
  return fill(template, (name) => values[name]);
}

/**
 * The environment every engine gives the command, beside the spec's own `env`
 * (which wins). BUGBENCH_JOB_ID is added by the engine where the id is known.
 */
export function jobEnvironment(spec: JobSpec, engine: EngineName): Record<string, string> {
  return {
    BUGBENCH_ENGINE: engine,
    BUGBENCH_DATASET: spec.dataset.path,
    BUGBENCH_DATASET_FORMAT: spec.dataset.format,
    BUGBENCH_JOB_KIND: spec.kind,
    BUGBENCH_JOB_NAME: spec.name,
    BUGBENCH_JOB_KEY: spec.key,
    BUGBENCH_WORKDIR: spec.workdir,
    BUGBENCH_GPUS: String(spec.resources?.gpus ?? 0),
    BUGBENCH_CPUS: String(spec.resources?.cpus ?? 1),
    ...spec.env,
  };
}
