import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateReport } from '../../reporters/schema.ts';
import type { RunResult } from '../../src/runner/results.ts';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repoRoot, 'bin', 'conform.js');

/** Starts the CLI and hands back the child, for tests that interrupt it. */
export function spawnCli(args: readonly string[], outDir: string, env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, [bin, ...args, '--out', outDir], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, done };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outDir: string;
  report(): RunResult;
}

/** Runs the real CLI in a child process, as a user would, with its own report folder. */
export function runCli(args: readonly string[], env: Record<string, string | undefined> = {}, cwd = repoRoot): Promise<CliRun> {
  const outDir = mkdtempSync(join(tmpdir(), 'conform-out-'));
  const hasOut = args.includes('--out');
  const fullArgs = hasOut ? [...args] : [...args, '--out', outDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...fullArgs], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        outDir,
        report: () => readReport(outDir),
      }),
    );
  });
}

/** report.json of a run; every report a test reads must validate against the published schema. */
export function readReport(outDir: string): RunResult {
  const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as unknown;
  const problems = validateReport(report);
  if (problems.length > 0) throw new Error(`report.json in ${outDir} does not validate against reporters/report.schema.json:\n${problems.join('\n')}`);
  return report as RunResult;
}
