import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDiffConfig, type DiffConfig } from '../diff/config.ts';
import { DIFF_FILE, diffJson, renderDiff, renderDiffSummary } from '../diff/render.ts';
import { agrees, diffDeployments, type DiffReport } from '../diff/run.ts';
import { prepareOutDir } from '../core/out-dir.ts';
import type { DiffSide } from '../diff/read.ts';
import type { SideName } from '../diff/compare.ts';
import { NoVerdictError, UsageError } from '../core/errors.ts';
import { restoredItems, type IgnoreRules } from '../diff/ignore.ts';
import { readJournal } from '../safety/journal.ts';
import { exitCodes } from '../runner/verdict.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './io.ts';
import { openTarget, preflight, type OpenTarget } from '../runner/open-target.ts';

/** conform diff: one user's data on two deployments; exit 0 agree, 1 disagree, 2 usage, 3 unreachable. */
export async function runDiff(values: ParsedArgs['values'], ctx: CommandIo): Promise<number> {
  const config = resolveDiffConfig(values, ctx.io.env, ctx.io.cwd);
  ctx.mask(config.secrets);
  const opened: OpenTarget[] = [];
  try {
    const target = await open('target', config.target, config.timeoutMs, opened, ctx);
    const against = await open('against', config.against, config.timeoutMs, opened, ctx);
    // With `--out -` stdout carries the JSON only; the text goes to stderr.
    const text = config.out && 'stdout' in config.out ? ctx.err : ctx.out;
    const terminal = config.reporters.includes('terminal');
    if (terminal) text(`conform diff: comparing one user's data on two deployments (§9)\n`);
    const ignore = { fields: config.ignoreFields, touched: touchedItems(config.journals, [target, against]) };
    const report = await diffDeployments(target, against, { seed: config.seed, sample: config.sample, maxRequests: config.maxRequests, ignore });
    text(renderDiff(report, { full: terminal }));
    writeDiffReports(report, config, ctx);
    return agrees(report) ? exitCodes.conforms : exitCodes['does not conform'];
  } finally {
    for (const target of opened.reverse()) await target.close();
  }
}

function writeDiffReports(report: DiffReport, config: DiffConfig, ctx: CommandIo): void {
  const { redact } = ctx;
  if (config.out && 'stdout' in config.out) ctx.out(diffJson(report));
  else if (config.out) {
    prepareOutDir(config.out.dir);
    const path = join(config.out.dir, DIFF_FILE);
    writeFileSync(path, redact(diffJson(report)));
    if (config.reporters.includes('terminal')) ctx.out(`report: ${path}\n`);
  }
  const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (config.reporters.includes('github') && summaryFile) appendFileSync(summaryFile, redact(renderDiffSummary(report)));
}

async function open(name: SideName, choice: Parameters<typeof openTarget>[0], timeoutMs: number, opened: OpenTarget[], ctx: CommandIo): Promise<DiffSide> {
  const target = await openTarget(choice, { timeoutMs });
  opened.push(target);
  // The embedded reference makes its own keys; a remote target's are in the plan already.
  ctx.mask([target.keys.primary]);
  try {
    await preflight(target);
  } catch (error) {
    const where = `--${name} ${target.label}`;
    if (error instanceof UsageError) throw new UsageError(`${where}: ${error.message}${name === 'against' ? ' (for --against: --against-key)' : ''}`);
    if (error instanceof NoVerdictError) throw new NoVerdictError(`${where}: ${error.message}`);
    throw error;
  }
  return { name, label: target.label, baseUrl: target.baseUrl, profile: target.profile, api: target.api('primary')! };
}

/**
 * Items an earlier run toggled and put back, from journals written against one of the two sides. A
 * journal named with --journal that was written elsewhere is a usage error; the default one is then
 * just not used.
 */
function touchedItems(journals: DiffConfig['journals'], sides: readonly DiffSide[]): IgnoreRules['touched'] {
  const touched: IgnoreRules['touched'] = [];
  for (const journal of journals) {
    const entries = readJournal(journal.path);
    const header = entries[0];
    const url = header?.op === 'run' ? header.url : undefined;
    if (url === undefined || !sides.some((side) => side.baseUrl === url)) {
      if (journal.explicit)
        throw new UsageError(`--journal ${journal.path} was written against ${url ?? 'an unrecorded target'}, neither --target nor --against`);
      continue;
    }
    touched.push({ journal: journal.path, ids: restoredItems(entries) });
  }
  return touched;
}
