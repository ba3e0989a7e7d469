import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { referenceFor } from '../scripts/self-test-worker.ts';
import { runCli } from './support/cli.ts';

const mutants = await loadMutants();

/** One mutant per kind of fault: the stale list rows of KEPT-004 and a few areas whose messages quote values. */
const WANTED = ['KEPT-004', 'KEPT-005', 'FILT-', 'PAGE-', 'USES-', 'STAGE-001'];
/** Mutants written by hand for one check (not a blind round's, not a generated grid's). */
const handWritten = (id: string) => !/^(blind|cross-|pair-)/.test(id);
const chosen = WANTED.map((want) => mutants.find((m) => m.open === undefined && handWritten(m.id) && m.kills.some((k) => k.startsWith(want)))!).filter(Boolean);
chosen.push(...mutants.filter((m) => m.id === 'kept-filter-cached' && !chosen.includes(m)));

/** JavaScript's spellings of "no value" that a person should never have to read. */
const JS_TOKENS = /\bundefined\b|\[object Object\]|\bNaN\b/;

/** "the list row of item 12 shows is_kept=0": the item, field and value a message says the exchange shows. */
const SHOWS = /item (\S+?) shows (\w+)=(\S+?)(?=[,;)]|\s|$)/;

describe('a failure shows the exchange that showed the fault, in words a person reads', () => {
  it('has the mutants it means to run', () => {
    expect(chosen.map((m) => m.id)).toContain('kept-list-cached');
    expect(chosen.length).toBeGreaterThanOrEqual(6);
  });

  it.each(chosen.map((m) => [m.id, m] as const))('%s', async (_id, mutant) => {
    const reference = await startReference(referenceFor({ kind: 'mutant', id: mutant.id } as Parameters<typeof referenceFor>[0], mutants, () => ({})));
    try {
      const run = await runCli([
        '--target',
        reference.url,
        '--profile',
        mutant.profile ?? 'primary',
        '--key',
        reference.keys.primary,
        '--other-key',
        reference.keys.other,
        '--only',
        mutant.kills.join(','),
        '--seed',
        '1',
      ]);
      const report = run.report();
      const failed = report.checks.filter((c) => c.status === 'failed');
      expect(failed.length, run.stdout + run.stderr).toBeGreaterThan(0);
      const html = readFileSync(join(run.outDir, 'report.html'), 'utf8');
      const junit = readFileSync(join(run.outDir, 'junit.xml'), 'utf8');
      for (const check of failed) {
        const message = check.message ?? '';
        expect(message, `${check.id}: ${message}`).not.toMatch(JS_TOKENS);
        // The clause it broke, by id and in words, in every report.
        expect(check.clause, check.id).toMatchObject({ id: expect.stringMatching(/^C\d+\.\d+$/), text: expect.any(String) });
        const words = check.clause!.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
        expect(html).toContain(`Clause ${check.clause!.id}`);
        expect(junit).toContain(`clause ${check.clause!.id}`);
        expect(html.includes(words) || html.includes(words.replace(/'/g, '&#39;'))).toBe(true);
        const named = SHOWS.exec(message);
        if (!named) continue;
        // The attached exchange is the one that showed it: it holds that item with that value.
        const [, itemId, field, value] = named;
        expect(check.exchange, `${check.id}: no exchange attached to "${message}"`).toBeDefined();
        const body = JSON.parse(check.exchange!.responseBody) as unknown;
        const rows = JSON.stringify(body).includes(`"id":${itemId}`) || JSON.stringify(body).includes(`"id":"${itemId}"`);
        expect(rows, `${check.id}: the attached answer does not hold item ${itemId}: ${check.exchange!.request}`).toBe(true);
        const row = findRow(body, itemId!);
        expect(row, `${check.id}: item ${itemId} in ${check.exchange!.request}`).toBeDefined();
        if (value === 'absent') expect(field! in row!).toBe(false);
        else expect(JSON.stringify(row![field!])).toBe(value);
      }
    } finally {
      await reference.close();
    }
  });
});

function findRow(body: unknown, id: string): Record<string, unknown> | undefined {
  if (Array.isArray(body)) {
    for (const entry of body) {
      const found = findRow(entry, id);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (String(record.id) === id && 'Title' in record) return record;
  return findRow(Object.values(record), id);
}
