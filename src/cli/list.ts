import { UsageError } from '../core/errors.ts';
import type { CheckMeta } from '../harness/meta.ts';
import { SuiteRunner } from '../runner/vitest-host.ts';
import { matchesSelection, splitList } from '../config/selection.ts';
import type { ParsedArgs } from './args.ts';
import { exitCodes } from '../runner/verdict.ts';
import { naturalOrder } from '../core/natural-order.ts';

export type ListedCheck = CheckMeta;

/** Every declared check, collected without running anything (no target needed). */
export async function collectChecks(): Promise<ListedCheck[]> {
  const runner = await SuiteRunner.create({ checkTimeoutMs: 1_000 });
  const modules = await runner.collect().finally(() => runner.close());
  const checks: ListedCheck[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const meta = test.meta().conform as CheckMeta | undefined;
      if (meta) checks.push({ ...meta });
    }
  }
  return checks.sort((a, b) => naturalOrder(a.id, b.id));
}

export async function listChecks(values: ParsedArgs['values'], out: (text: string) => void): Promise<number> {
  const format = values.format ?? 'text';
  if (!['text', 'md', 'json'].includes(format)) throw new UsageError(`--format must be text, md or json, got '${format}'`);
  const only = splitList(values.only ?? []);
  const skip = splitList(values.skip ?? []);
  const checks = (await collectChecks()).filter((c) => matchesSelection(c.id, only, skip));
  if (checks.length === 0) throw new UsageError('the selection matches no check');
  if (format === 'json') {
    out(
      `${JSON.stringify(
        checks.map(({ id, level, sections, title, area, requires, needsOtherKey, toggles }) => ({
          id,
          level,
          sections,
          title,
          area,
          requires: requires ?? [],
          needsOtherKey: needsOtherKey ?? false,
          toggles: toggles ?? false,
        })),
        null,
        2,
      )}\n`,
    );
  } else if (format === 'md') {
    out('| id | level | section | area | check |\n|---|---|---|---|---|\n');
    for (const c of checks) out(`| ${c.id} | ${c.level} | ${c.sections.join(', ')} | ${c.area} | ${c.title} |\n`);
  } else {
    for (const c of checks) out(`${c.id.padEnd(12)} ${c.level.padEnd(6)} ${c.sections.join(', ').padEnd(8)} ${c.area.padEnd(16)} ${c.title}\n`);
    out(`${checks.length} checks\n`);
  }
  return exitCodes.done;
}
