import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './cli.ts';
import { nodeBinaryDir } from './node-binary.ts';

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
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionFile {
  name: string;
  description: string;
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
  /** The `uses:` steps the test has no stand-in for, and so did not run. */
  skipped: string[];
  /** Milliseconds each step took, by name, including the stand-ins for actions/cache. */
  timings: Record<string, number>;
  /** Steps whose `if:` was false. */
  notRun: string[];
}

export interface RunOptions {
  /** The action's folder ($GITHUB_ACTION_PATH); default the repository itself. */
  actionPath?: string;
  /** Stands in for the Actions cache service: actions/cache restores from and saves to `<cacheDir>/<key>`. */
  cacheDir?: string;
  extraEnv?: Record<string, string>;
}

/** A fresh copy of the repository's files, as actions/checkout leaves them: no node_modules. */
export function checkoutCopy(): string {
  const folder = mkdtempSync(join(tmpdir(), 'conform-checkout-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !file.startsWith('node_modules') && existsSync(join(repoRoot, file)));
  for (const file of files) cpSync(join(repoRoot, file), join(folder, file), { recursive: true });
  return folder;
}

/** The expressions `if:` takes here: `steps.<id>.outputs.<name> == 'v'` or `!= 'v'`. */
function condition(expression: string, value: (path: string) => string): boolean {
  const match = /^\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*$/.exec(expression.replace(/^\$\{\{|\}\}$/g, ''));
  if (!match) throw new Error(`the test does not know the condition ${expression}`);
  return (value(match[1]!) === match[3]) === (match[2] === '==');
}

/**
 * The machine's network settings (a private CA, a proxy), as a runner's steps inherit them: without the CA, npm cannot
 * verify the registry behind an intercepting proxy and waits out its retries before it falls back to its cache.
 */
const NETWORK_ENV = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'];
const machineNetworkEnv = (): Record<string, string> =>
  Object.fromEntries(NETWORK_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]!]));

/**
 * Runs a composite action's `run:` steps the way the GitHub runner does: each through
 * `bash --noprofile --norc -eo pipefail`, with `${{ … }}` expressions substituted beforehand (composite
 * actions get no INPUT_* variables), GITHUB_* files for outputs and the job summary, and stops at the
 * first step that fails. The action's outputs are then evaluated from the steps' outputs. Stand-ins for
 * the actions it uses: setup-node puts a Node of the asked line (from the npm registry) first on PATH;
 * actions/cache restores from and saves to a folder.
 */
export async function runAction(action: ActionFile, given: Record<string, string>, options: RunOptions = {}): Promise<ActionRun> {
  const actionPath = options.actionPath ?? repoRoot;
  const cacheDir = options.cacheDir ?? mkdtempSync(join(tmpdir(), 'conform-cache-'));
  const extraEnv = options.extraEnv ?? {};
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
    if (expression.trim() === 'github.action_path') return actionPath;
    if (expression.trim() === 'github.workspace') return workspace;
    if (path[0] === 'steps' && path[2] === 'outputs' && path.length === 4) return stepOutputs[path[1]!]?.[path[3]!] ?? '';
    throw new Error(`the test does not know the expression \${{ ${expression} }}`);
  };
  const substitute = (text: string) => text.replace(/\$\{\{([^}]*)\}\}/g, (_, expression: string) => context(expression));

  const skipped: string[] = [];
  const notRun: string[] = [];
  const timings: Record<string, number> = {};
  const saves: { path: string; key: string }[] = [];
  let log = '';
  let code: number | null = 0;
  let jobPath = process.env.PATH ?? '';
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index}`;
    if (step.if !== undefined && !condition(step.if, (path) => context(path))) {
      notRun.push(name);
      continue;
    }
    const started = performance.now();
    if (step.uses?.startsWith('actions/cache@')) {
      // Restore now; save at the end of the job (the action's post step), only when the key missed.
      const path = substitute(step.with?.path ?? '');
      const key = substitute(step.with?.key ?? '');
      if (!key || !path) throw new Error('actions/cache needs a key and a path');
      const hit = existsSync(join(cacheDir, key));
      if (hit) cpSync(join(cacheDir, key), path, { recursive: true, verbatimSymlinks: true });
      else saves.push({ path, key });
      if (step.id) stepOutputs[step.id] = { 'cache-hit': String(hit) };
      log += `cache ${hit ? 'restored' : 'missed'}: ${key}\n`;
      timings[name] = performance.now() - started;
      continue;
    }
    if (step.uses?.startsWith('actions/setup-node@')) {
      // As setup-node does: that Node first on PATH for every later step of the job.
      const bin = nodeBinaryDir(Number(substitute(step.with?.['node-version'] ?? '')));
      jobPath = `${bin}:${jobPath}`;
      if (step.id) stepOutputs[step.id] = { 'node-version': execFileSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim() };
      timings[name] = performance.now() - started;
      continue;
    }
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
      PATH: jobPath,
      HOME: process.env.HOME ?? '',
      ...machineNetworkEnv(),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: actionPath,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: process.arch === 'arm64' ? 'ARM64' : 'X64',
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
    timings[name] = performance.now() - started;
    if (step.id) stepOutputs[step.id] = parseOutputFile(readFileSync(outputFile, 'utf8'));
    code = result.code;
    if (code !== 0) break;
  }
  for (const { path, key } of saves) if (code === 0 && existsSync(path)) cpSync(path, join(cacheDir, key), { recursive: true, verbatimSymlinks: true });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value)]));
  return { code, log, outputs, summary: readFileSync(summaryFile, 'utf8'), workspace, skipped, timings, notRun };
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
