/**
 * Commands describe themselves (issue 32, item 3): each command's module owns
 * its name, usage, flags and handler; the help and the docs are made from
 * them, and the docs made from the code are not stale.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandModules } from '../../../src/commands/registry.js';
import { commandHelp, overview, unnamedFlags, type CommandModule } from '../../../src/commands/command.js';
import { referenceDocs, withGenerated } from '../../../src/commands/docs-reference.js';
import { DATASET_FORMATS, EXPORT_FORMATS } from '../../../src/datasets/formats.js';
import { POLICIES } from '../../../src/agent/policy-names.js';
import { STRATEGIES } from '../../../src/pipeline/injectors.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('command modules', () => {
  it('are each listed under their own name', async () => {
    for (const [name, load] of Object.entries(COMMANDS)) expect((await load()).name).toBe(name);
  });

  it('name every flag they take in their usage', async () => {
    const missing = (await commandModules()).flatMap((c) => unnamedFlags(c).map((flag) => `${c.name} ${flag}`));
    expect(missing).toEqual([]);
    const drifted: CommandModule = { name: 'x', summary: 'x', usage: ['bugbench x [-n N] [--json]'], flags: { n: { type: 'string', short: 'n' }, json: { type: 'boolean' }, seed: { type: 'string' } }, run: async () => 0 };
    expect(unnamedFlags(drifted)).toEqual(['--seed']);
  });

  it('list the choices from the tables they come from: formats, policies, strategies', async () => {
    const help = async (name: string) => commandHelp(await COMMANDS[name]!());
    for (const format of EXPORT_FORMATS) expect(await help('export')).toContain(format);
    expect(await help('queue')).toContain(`--format ${DATASET_FORMATS.join('|')}`);
    for (const name of ['inject', 'solve', 'analyse']) expect(await help(name)).toContain(`--policy ${POLICIES.join('|')}`);
    expect(await help('inject')).toContain(STRATEGIES.join('|'));
  });

  it('make `bugbench --help`: every command with its summary', async () => {
    const modules = await commandModules();
    const text = overview(modules);
    for (const c of modules) expect(text).toMatch(new RegExp(`^  ${c.name} +${c.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  });
});

describe('the docs made from the code', () => {
  it('are as the code makes them now (run `npm run docs:reference` after changing a command or a key)', async () => {
    for (const doc of await referenceDocs(ROOT)) expect(readFileSync(join(ROOT, doc.path), 'utf8'), `${doc.path} is stale: run npm run docs:reference`).toBe(doc.text);
  });

  it('replace only what lies between the generated marks', () => {
    const once = withGenerated('# Commands\n\nprose\n', 'old');
    expect(once).toContain('prose');
    const twice = withGenerated(`${once}\nmore prose\n`, 'new');
    expect(twice).toContain('new');
    expect(twice).not.toContain('old');
    expect(twice).toContain('more prose');
    expect(twice.match(/generated from src\/commands/g)).toHaveLength(1);
  });
});
