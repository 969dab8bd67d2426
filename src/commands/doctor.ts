/** `bugbench doctor [--fix] [--json]` */
import { diagnose, fix, reportHealthy, type DoctorReport, type EngineReport } from '../pipeline/doctor.js';
import type { BwrapNodeFacts } from '../sandbox/bwrap/node-check.js';
import { RECENT_USE_MS } from '../sandbox/bwrap/unpacked.js';
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
    if (e.bwrap) return bwrapLines(e, e.bwrap);
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

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/** What is unpacked already, and what of it goes before the next unpack. */
function unpackedNote(room: BwrapNodeFacts['room']): string {
  const stale = room.stale > 0 ? `, ${room.stale} of a file packed again or removed since (removed before the next unpack, once unused for ${RECENT_USE_MS / 60_000} min)` : '';
  return `${room.unpacked} image version(s) unpacked${stale}; unused ones go, least recently used first, when an unpack lacks room`;
}

/** A bwrap engine: what its node has of what the kind needs, its packed images, a sandbox tried, what it lacks (with fixes). */
function bwrapLines(e: EngineReport, node: BwrapNodeFacts): string[] {
  const mark = (ok: boolean) => (ok ? 'ok     ' : 'MISSING');
  const usable = node.folder.images.filter((i) => !i.problem);
  const images = usable.map((i) => `${i.names[0]}${i.unpacked ? ' (unpacked)' : ''}`).join(', ') || 'none';
  const lines = [
    e.ok ? `ok      engine ${e.name} at ${e.host}: ${e.kind}, ${e.slots} slot(s); ${usable.length} packed image(s): ${images}` : `DOWN    engine ${e.name} at ${e.host}: ${e.detail}`,
    `${mark(node.bwrap !== null && node.userNamespaces === '')} engine ${e.name}: bwrap ${node.bwrap ?? 'absent'}, user namespaces ${node.userNamespaces === '' ? 'allowed' : 'refused'}, overlay in them ${node.overlay === '' ? 'works' : 'fails'}, unsquashfs ${node.unsquashfs ? 'present' : 'absent'}, util-linux ${node.utilLinux ?? 'absent'}`,
    `${mark(node.room.freeBytes === null || node.room.neededBytes <= node.room.freeBytes)} engine ${e.name}: unpacking needs ${gib(node.room.neededBytes)} more under ${node.room.path}${node.room.freeBytes === null ? '' : ` (${gib(node.room.freeBytes)} free)`}; ${unpackedNote(node.room)}`,
  ];
  if (e.containers) lines.push(e.containers.ok ? `ok      engine ${e.name} ran a sandbox of ${usable[0]?.names[0]} in ${e.containers.ms} ms` : `FAILS   engine ${e.name} cannot run sandboxes: ${e.containers.detail}`);
  for (const missing of e.missing ?? []) lines.push(`MISSING engine ${e.name} needs ${missing}`);
  for (const note of e.notes ?? []) lines.push(`note    engine ${e.name}: ${note}`);
  return lines;
}

export function formatReport(report: DoctorReport): string {
  const mark = (ok: boolean) => (ok ? 'ok     ' : 'MISSING');
  const lines = [
    `${mark(report.engine.ok)} default engine ${report.engine.ok ? `${report.engine.kind ?? report.engine.version} at ${report.engine.host}` : `at ${report.engine.host}: ${report.engine.detail ?? 'not reachable'}`}`,
    ...engineLines(report),
    ...(report.packedOnly ? ['        images are built and packed where an engine is (`bugbench images pack IMAGE --out DIR/`); none is built here'] : imageLines(report)),
    `${report.anthropicKey ? 'ok     ' : 'absent '} ANTHROPIC_API_KEY ${report.anthropicKey ? 'is set' : 'not set: the offline policy will be used'}`,
    `${report.cluster.ok ? 'ok     ' : report.cluster.engine ? 'DOWN   ' : 'absent '} cluster engine${report.cluster.engine ? ` ${report.cluster.engine}` : ''}: ${report.cluster.detail}`,
    ...(report.cluster.containers ? [`        cluster jobs' containers: ${report.cluster.containers}`] : []),
  ];
  if (!reportHealthy(report)) lines.push('', report.packedOnly ? 'Install what is MISSING above (each line says how); `bugbench doctor --fix` starts and builds nothing on a bwrap node.' : 'Run `bugbench doctor --fix` to set up what is missing.');
  return `${lines.join('\n')}\n`;
}

/** The base, toolchain and sample images of the default engine. */
function imageLines(report: DoctorReport): string[] {
  const mark = (ok: boolean) => (ok ? 'ok     ' : 'MISSING');
  return [
    `${mark(report.baseImage.ok)} base image ${report.baseImage.tag}`,
    ...(report.toolchainBases ?? []).map((b) => {
      const need = b.neededBy.length > 0 ? `needed by ${b.neededBy.join(', ')}` : 'built when a repository needs it';
      const state = b.ok ? 'ok     ' : b.neededBy.length > 0 ? 'MISSING' : b.state === 'stale' ? 'stale  ' : 'absent ';
      return `${state} toolchain base ${b.tag} (${b.holds})${b.state === 'stale' ? ': its recipe changed' : ''}; ${need}`;
    }),
    ...report.sampleImages.map((s) => `${mark(s.ok)} sample image ${s.tag}`),
  ];
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
