/**
 * Prompt templates from prompts/: Markdown with named placeholders such as
 * {min_passing_tests}. `{{` and `}}` stand for literal braces. A placeholder
 * left without a value is an error, so a template and its caller cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMPTS_DIR } from '../paths.js';

export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{|\}\}|\{([a-z_]+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values[name!];
    if (value === undefined) throw new Error(`prompt placeholder {${name}} has no value`);
    return String(value);
  });
}

const loaded = new Map<string, string>();

/** A template from `dir` (read once per process). */
export function loadPrompt(name: string, dir: string = PROMPTS_DIR): string {
  const path = join(dir, `${name}.md`);
  let text = loaded.get(path);
  if (text === undefined) loaded.set(path, (text = readFileSync(path, 'utf8').trimEnd()));
  return text;
}

export function renderPrompt(name: string, values: Record<string, string | number>, dir: string = PROMPTS_DIR): string {
  return fillTemplate(loadPrompt(name, dir), values);
}

export interface InjectionPromptValues {
  repoRoot: string;
  minPassingTests: number;
  minChangedFiles: number;
  minFailingTests: number;
  testTimeoutSec: number;
  /** The image's own test command, told to the agent as where to start; none: the agent finds its own. */
  testCommand?: string;
}

/** The system prompt and the task of an injection rollout for a strategy. */
export function injectionPrompts(strategy: string, v: InjectionPromptValues): { system: string; task: string } {
  const values = {
    repo_root: v.repoRoot,
    min_passing_tests: v.minPassingTests,
    min_changed_files: v.minChangedFiles,
    min_failing_tests: v.minFailingTests,
    test_timeout: v.testTimeoutSec,
  };
  // A feature's agent leaves how it ran the tests; bugbench makes the rest of the artifact.
  const artifactRules = renderPrompt(strategy === 'featadd' ? '_feature-rules' : '_artifact-rules', values);
  // The image knows how its tests run (an environment variable they need, a runner's flags): the agent starts from that.
  const known = v.testCommand?.trim() ? `\n\nThe image's own test command is \`${v.testCommand.trim()}\`: start from it when you run the tests.` : '';
  return {
    system: `${renderPrompt('injector-system', values)}${known}`,
    task: renderPrompt(strategy, { ...values, artifact_rules: artifactRules }),
  };
}

/**
 * What a solver is told the problem is (and what an exported instance calls
 * its problem statement): the fixed template around the oracle test patch
 * (the reversed weakening), as Self-play SWE-RL does.
 */
export function templateStatement(oracleTestPatch: string): string {
  return renderPrompt('solver-spec', { oracle_test_patch: oracleTestPatch.trimEnd() });
}

/** The system prompt and the task of a solver rollout around a problem statement. */
export function solverPrompts(statement: string, repoRoot = '/repo'): { system: string; task: string } {
  return {
    system: renderPrompt('solver-system', { repo_root: repoRoot }),
    task: renderPrompt('solver-task', { repo_root: repoRoot, issue: statement.trimEnd() }),
  };
}
