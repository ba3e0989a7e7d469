import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { validateReport } from '../../reporters/schema.ts';
import { UsageError } from '../core/errors.ts';
import { prepareOutDir } from '../core/out-dir.ts';
import type { RunResult } from '../runner/results.ts';
import { exitCodes } from '../runner/verdict.ts';
import { packageRoot } from '../runner/vitest-host.ts';
import { clauses } from '../spec/clauses.ts';
import { renderBadge } from '../vendor/badge.ts';
import { COMPARE_FILES, compareJson, renderCompareHtml, renderCompareMarkdown } from '../vendor/compare-render.ts';
import { compareRuns, fromReport, fromStatement, type Implementation } from '../vendor/compare.ts';
import { detachedDigest } from '../vendor/digest.ts';
import {
  BADGE_FILE,
  buildStatement,
  renderStatement,
  specIdentity,
  STATEMENT_DIGEST_FILE,
  STATEMENT_FILE,
  verifyStatement,
  type Statement,
  type SuiteIdentity,
} from '../vendor/statement.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './io.ts';
import { collectChecks } from './list.ts';

let installed: Promise<SuiteIdentity> | undefined;
/** The suite installed here: its package name and version, its reading of the spec, and its checks (collected once a process). */
function installedSuite(): Promise<SuiteIdentity> {
  installed ??= readInstalledSuite();
  installed.catch(() => (installed = undefined));
  return installed;
}

async function readInstalledSuite(): Promise<SuiteIdentity> {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const checks = (await collectChecks()).map(({ id, level, sections }) => ({ id, level, sections: [...sections] }));
  return { name: pkg.name, version: pkg.version, spec: specIdentity(clauses), checks };
}

/** Proxy passwords from the environment: no file this command writes may show one. */
function proxyPasswords(env: Record<string, string | undefined>): string[] {
  return ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'].flatMap((name) => {
    try {
      const password = env[name] ? new URL(env[name]).password : '';
      return password ? [password, decodeURIComponent(password)] : [];
    } catch {
      return [];
    }
  });
}

/** conform statement REPORT_DIR [--out DIR] | conform statement --verify FILE. */
export async function runStatement(values: ParsedArgs['values'], inputs: readonly string[], ctx: CommandIo): Promise<number> {
  ctx.mask(proxyPasswords(ctx.io.env));
  if (values.verify !== undefined) {
    if (inputs.length > 0) throw new UsageError(`statement --verify takes the statement file only, not '${inputs[0]}'`);
    return verify(resolve(ctx.io.cwd, values.verify), ctx);
  }
  if (inputs.length !== 1) throw new UsageError('statement needs one report folder: conform statement <REPORT_DIR> (see conform statement --help)');
  const reportPath = reportFileOf(resolve(ctx.io.cwd, inputs[0]!));
  const reportText = readText(reportPath, 'report');
  // Masked before it is read, so that the digests are of what is written.
  const report = parseReport(ctx.redact(reportText), reportPath);
  const statement = buildStatement(report, reportText, await installedSuite(), {
    issued: new Date().toISOString(),
    report: statSync(reportPath).mtime.toISOString(),
  });
  const outDir = resolve(ctx.io.cwd, values.out ?? dirname(reportPath));
  prepareOutDir(outDir);
  const text = renderStatement(statement);
  if (ctx.redact(text) !== text) throw new UsageError('the statement would show a secret; it was not written');
  const written = {
    statement: join(outDir, STATEMENT_FILE),
    digest: join(outDir, STATEMENT_DIGEST_FILE),
    badge: join(outDir, BADGE_FILE),
  };
  writeFileSync(written.statement, text);
  writeFileSync(written.digest, detachedDigest(text, STATEMENT_FILE));
  writeFileSync(written.badge, ctx.redact(renderBadge(statement)));
  ctx.out(`statement: ${written.statement} (${statement.verdict.verdict}; ${statement.digest})\n`);
  ctx.out(`digest:    ${written.digest}\n`);
  ctx.out(`badge:     ${written.badge}\n`);
  ctx.out(`in a README: [![Agent API conformance](${BADGE_FILE})](${STATEMENT_FILE})\n`);
  return exitCodes.done;
}

async function verify(path: string, ctx: CommandIo): Promise<number> {
  const file = isDirectory(path) ? join(path, STATEMENT_FILE) : path;
  const text = readText(file, 'statement');
  const digestPath = `${file}.sha256`;
  const detached = existsSync(digestPath) ? readText(digestPath, 'detached digest') : undefined;
  const suite = await installedSuite();
  const result = verifyStatement(text, detached, basename(file), suite);
  for (const note of result.notes) ctx.out(`note: ${note}\n`);
  if (!result.ok) {
    for (const problem of result.problems) ctx.out(`problem: ${problem}\n`);
    ctx.out(`not verified: ${file}\n`);
    return exitCodes['does not conform'];
  }
  const statement = JSON.parse(text) as Statement;
  ctx.out(
    `verified: ${file}: ${statement.run.target.label} ${statement.verdict.verdict} under the ${statement.run.profile} profile; same check set and spec as ${suite.name} ${suite.version}\n`,
  );
  return exitCodes.done;
}

/** conform compare FILE… [--label NAME]… [--out DIR]. */
export async function runCompare(values: ParsedArgs['values'], inputs: readonly string[], ctx: CommandIo): Promise<number> {
  ctx.mask(proxyPasswords(ctx.io.env));
  if (inputs.length === 0) throw new UsageError('compare needs report.json files, report folders or statements (see conform compare --help)');
  const labels = values.label ?? [];
  if (labels.length > inputs.length) throw new UsageError(`${labels.length} labels for ${inputs.length} run(s)`);
  const outDir = resolve(ctx.io.cwd, values.out ?? 'conform-compare');
  const implementations = inputs.map((input) => readImplementation(resolve(ctx.io.cwd, input), input, outDir));
  const comparison = compareRuns(implementations, labels);
  prepareOutDir(outDir);
  const files = {
    html: [renderCompareHtml(comparison), COMPARE_FILES.html],
    md: [renderCompareMarkdown(comparison), COMPARE_FILES.md],
    json: [compareJson(comparison), COMPARE_FILES.json],
  } as const;
  for (const [text, name] of Object.values(files)) writeFileSync(join(outDir, name), ctx.redact(text));
  for (const warning of comparison.warnings) ctx.err(`conform compare: warning: ${warning}\n`);
  const differing = comparison.groups.reduce((n, g) => n + g.rows.filter((r) => r.disagree).length, 0);
  ctx.out(`compare: ${implementations.length} implementation(s), ${differing} check(s) where they differ\n`);
  ctx.out(
    `written: ${Object.values(files)
      .map(([, name]) => join(outDir, name))
      .join(', ')}\n`,
  );
  return exitCodes.done;
}

function readImplementation(path: string, given: string, outDir: string): Implementation {
  let file = path;
  if (isDirectory(path)) file = existsSync(join(path, 'report.json')) ? join(path, 'report.json') : join(path, STATEMENT_FILE);
  const text = readText(file, 'run');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${given} is not valid JSON: ${(error as Error).message}`);
  }
  if (json !== null && typeof json === 'object' && 'statementVersion' in json) return fromStatement(json as Statement, given);
  const report = parseReport(text, given);
  const page = join(dirname(file), 'report.html');
  return fromReport(report, given, existsSync(page) ? relative(outDir, page).split('\\').join('/') : undefined);
}

function reportFileOf(path: string): string {
  return isDirectory(path) ? join(path, 'report.json') : path;
}

function parseReport(text: string, where: string): RunResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  const problems = validateReport(json);
  if (problems.length > 0) throw new UsageError(`${where} is not a conform report.json: ${problems.slice(0, 3).join('; ')}`);
  return json as RunResult;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the ${what} file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
