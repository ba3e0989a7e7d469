import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './cli.ts';

export interface ActionInput {
  description: string;
  required?: boolean;
  default?: string;
}

export interface ActionStep {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, string>;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionFile {
  name: string;
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export function readAction(): ActionFile {
  return parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as ActionFile;
}

export interface ActionRun {
  code: number | null;
  /** Every step's stdout and stderr, in order. */
  log: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  /** The `uses:` steps, which the runner would have run (setup-node); Node 20 is already here. */
  skipped: string[];
}

/**
 * Runs a composite action's `run:` steps the way the GitHub runner does: each through
 * `bash --noprofile --norc -eo pipefail`, with `${{ … }}` expressions substituted beforehand (composite
 * actions get no INPUT_* variables), GITHUB_* files for outputs and the job summary, and stops at the
 * first step that fails. The action's outputs are then evaluated from the steps' outputs.
 */
export async function runAction(action: ActionFile, given: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<ActionRun> {
  for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`the action has no input '${name}'`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const runner = mkdtempSync(join(tmpdir(), 'conform-runner-'));
  const workspace = join(runner, 'workspace');
  mkdirSync(workspace);
  const summaryFile = join(runner, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const context = (expression: string): string => {
    const path = expression.trim().split('.');
    if (path[0] === 'inputs' && path.length === 2 && path[1]! in inputs) return inputs[path[1]!]!;
    if (expression.trim() === 'github.action_path') return repoRoot;
    if (expression.trim() === 'github.workspace') return workspace;
    if (path[0] === 'steps' && path[2] === 'outputs' && path.length === 4) return stepOutputs[path[1]!]?.[path[3]!] ?? '';
    throw new Error(`the test does not know the expression \${{ ${expression} }}`);
  };
  const substitute = (text: string) => text.replace(/\$\{\{([^}]*)\}\}/g, (_, expression: string) => context(expression));

  const skipped: string[] = [];
  let log = '';
  let code: number | null = 0;
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.uses) {
      skipped.push(step.uses);
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: a composite run step needs shell: bash`);
    const outputFile = join(runner, `output-${index}`);
    writeFileSync(outputFile, '');
    const script = join(runner, `step-${index}.sh`);
    writeFileSync(script, substitute(step.run ?? ''));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: repoRoot,
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: tmpdir(),
      ...extraEnv,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))])),
    };
    const cwd = step['working-directory'] ? substitute(step['working-directory']) : workspace;
    const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, output }));
    });
    log += result.output;
    if (step.id) stepOutputs[step.id] = parseOutputFile(readFileSync(outputFile, 'utf8'));
    code = result.code;
    if (code !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value)]));
  return { code, log, outputs, summary: readFileSync(summaryFile, 'utf8'), workspace, skipped };
}

/** `name=value` lines, and `name<<DELIM` … `DELIM` blocks, as the runner reads $GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}
