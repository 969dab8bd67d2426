/** `bugbench doctor [--fix] [--json]` */
import { diagnose, fix, reportHealthy, type DoctorReport } from '../pipeline/doctor.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import type { CommandModule } from './command.js';

const FLAGS = {
  fix: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('doctor', args, FLAGS);
  const report = values.fix ? await fix(stderrProgress) : await diagnose();
  if (values.json) printJson(report);
  else process.stdout.write(formatReport(report));
  return reportHealthy(report) ? 0 : 1;
}

/** Lines per configured engine: kind, slots and repo images; whether it makes containers; what it lacks. */
function engineLines(report: DoctorReport): string[] {
  return report.engines.flatMap((e) => {
    if (!e.ok) return [`DOWN    engine ${e.name} at ${e.host}: ${e.detail}`];
    const images = e.images.length > 0 ? e.images.map((i) => i.tag).join(', ') : 'no repo images';
    const kind = `${e.rootless ? 'rootless ' : ''}${e.product === 'podman' ? 'Podman' : 'Docker'} ${e.version}`;
    const lines = [`ok      engine ${e.name} at ${e.host}: ${kind}, ${e.slots} slot(s); runtime ${e.runtime ?? '?'}; ${images}`];
    if (e.containers?.ok === false) lines.push(`FAILS   engine ${e.name} cannot run bugbench's containers: ${e.containers.detail}`);
    for (const missing of e.missing ?? []) lines.push(`MISSING engine ${e.name} needs ${missing}`);
    for (const note of e.notes ?? []) lines.push(`note    engine ${e.name}: ${note}`);
    return lines;
  });
}

export function formatReport(report: DoctorReport): string {
  const mark = (ok: boolean) => (ok ? 'ok     ' : 'MISSING');
  const lines = [
    `${mark(report.engine.ok)} default engine ${report.engine.ok ? `${report.engine.kind ?? report.engine.version} at ${report.engine.host}` : `at ${report.engine.host}: ${report.engine.detail ?? 'not reachable'}`}`,
    ...engineLines(report),
    `${mark(report.baseImage.ok)} base image ${report.baseImage.tag}`,
    ...(report.toolchainBases ?? []).map((b) => {
      const need = b.neededBy.length > 0 ? `needed by ${b.neededBy.join(', ')}` : 'built when a repository needs it';
      const state = b.ok ? 'ok     ' : b.neededBy.length > 0 ? 'MISSING' : b.state === 'stale' ? 'stale  ' : 'absent ';
      return `${state} toolchain base ${b.tag} (${b.holds})${b.state === 'stale' ? ': its recipe changed' : ''}; ${need}`;
    }),
    ...report.sampleImages.map((s) => `${mark(s.ok)} sample image ${s.tag}`),
    `${report.anthropicKey ? 'ok     ' : 'absent '} ANTHROPIC_API_KEY ${report.anthropicKey ? 'is set' : 'not set: the offline policy will be used'}`,
    `${report.cluster.ok ? 'ok     ' : report.cluster.engine ? 'DOWN   ' : 'absent '} cluster engine${report.cluster.engine ? ` ${report.cluster.engine}` : ''}: ${report.cluster.detail}`,
    ...(report.cluster.containers ? [`        cluster jobs' containers: ${report.cluster.containers}`] : []),
  ];
  if (!reportHealthy(report)) lines.push('', 'Run `bugbench doctor --fix` to set up what is missing.');
  return `${lines.join('\n')}\n`;
}

export const command: CommandModule = {
  name: 'doctor',
  summary: 'check (and with --fix, set up) the engine and images',
  usage: [
    'bugbench doctor [--fix] [--json]',
  ],
  flags: FLAGS,
  run: doctorCommand,
};
