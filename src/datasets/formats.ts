/**
 * The export formats, in one table: their names, whether one is a JSONL file
 * or a folder, and whether a training job can be given it. The export
 * command, the training queue, the workbench's training form and the help
 * read this list; a new format is one row here and its writer in export.ts.
 */
export const FORMATS = [
  { name: 'swebench', shape: 'jsonl', training: true, summary: 'SWE-bench task instances, one a line' },
  { name: 'sft', shape: 'jsonl', training: true, summary: 'chat transcripts of solved attempts, for supervised fine-tuning' },
  { name: 'rl', shape: 'jsonl', training: true, summary: 'prompts with their tests and rewards, for reinforcement learning' },
  { name: 'harbor', shape: 'folder', training: true, summary: 'one Harbor task folder per bug' },
  { name: 'trajectories', shape: 'folder', training: false, summary: "one mini-swe-agent .traj.json per rollout" },
] as const;

type Format = (typeof FORMATS)[number];

export type ExportFormat = Format['name'];
/** The formats a training job can be given. */
export type DatasetFormat = Extract<Format, { training: true }>['name'];

export const EXPORT_FORMATS: readonly ExportFormat[] = FORMATS.map((f) => f.name);
export const DATASET_FORMATS: readonly DatasetFormat[] = FORMATS.filter((f): f is Extract<Format, { training: true }> => f.training).map((f) => f.name);
/** Formats written as a folder rather than a JSONL file. */
export const FOLDER_FORMATS: readonly ExportFormat[] = FORMATS.filter((f) => f.shape === 'folder').map((f) => f.name);
export const JSONL_FORMATS: readonly ExportFormat[] = FORMATS.filter((f) => f.shape === 'jsonl').map((f) => f.name);

/** "swebench|sft|rl": formats as a flag's choices. */
export function formatChoices(formats: readonly string[]): string {
  return formats.join('|');
}
