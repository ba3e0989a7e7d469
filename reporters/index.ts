import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReporterName } from '../src/config/plan.ts';
import type { RunResult } from '../src/runner/results.ts';
import { renderStepSummary } from './github.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';

export { renderAnnotations, renderStepSummary } from './github.ts';
export { renderHtml } from './html.ts';
export { renderJson } from './json.ts';
export { failureText, renderJunit } from './junit.ts';
export { describeRateLimit, ProgressReporter } from './progress.ts';
export { validateReport } from './schema.ts';
export { symbols, terminalStyle, type Style } from './style.ts';
export { renderSummary, type SummaryOptions } from './terminal.ts';
export { defaultReporters, isReporterName, reporterNames, type ReporterName } from '../src/config/plan.ts';

/** The file each file reporter writes into the report folder. */
export const reportFiles = {
  json: { file: 'report.json', render: renderJson },
  junit: { file: 'junit.xml', render: renderJunit },
  html: { file: 'report.html', render: renderHtml },
} as const satisfies Partial<Record<ReporterName, { file: string; render: (run: RunResult) => string }>>;

export interface WriteReportsOptions {
  outDir: string;
  reporters: readonly ReporterName[];
  env: Record<string, string | undefined>;
  /** Applied to every byte written (masks keys). */
  redact: (text: string) => string;
}

/**
 * Writes report.json, junit.xml and report.html into outDir for the selected file reporters, and
 * appends the job summary to $GITHUB_STEP_SUMMARY when 'github' is selected or that variable is set.
 * Terminal output (summary, annotations) is the caller's: it goes to stdout. Returns the paths written.
 */
export function writeReports(run: RunResult, options: WriteReportsOptions): string[] {
  const written: string[] = [];
  const selected = new Set(options.reporters);
  for (const name of ['json', 'junit', 'html'] as const) {
    if (!selected.has(name)) continue;
    mkdirSync(options.outDir, { recursive: true });
    const path = join(options.outDir, reportFiles[name].file);
    writeFileSync(path, options.redact(reportFiles[name].render(run)));
    written.push(path);
  }
  // 'github' selected or not, a set GITHUB_STEP_SUMMARY gets the summary; without it there is nowhere to append.
  const summaryFile = options.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    appendFileSync(summaryFile, options.redact(renderStepSummary(run)));
    written.push(summaryFile);
  }
  return written;
}
