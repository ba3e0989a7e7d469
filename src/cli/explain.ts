import { loadMutants } from '../../fixtures/mutants/index.ts';
import { clauses } from '../spec/clauses.ts';
import { UsageError } from '../core/errors.ts';
import { profileNames, missingCapabilities } from '../spec/profiles.ts';
import type { ParsedArgs } from './args.ts';
import { collectChecks, type ListedCheck } from './list.ts';
import { exitCodes } from '../runner/verdict.ts';

/** Everything `conform explain` says about one check. */
export interface Explanation {
  id: string;
  level: string;
  sections: readonly string[];
  area: string;
  title: string;
  clauses: { id: string; section: string; statement: string }[];
  accepts: readonly string[];
  appliesTo: string[];
  needsOtherKey: boolean;
  mutants: { id: string; description: string; profile: string }[];
  replay: string;
}

/** `conform explain <ID>`: what a check enforces and how it is proven, from its static metadata; nothing is sent. */
export async function runExplain(id: string, values: ParsedArgs['values'], out: (text: string) => void): Promise<number> {
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json for explain, got '${format}'`);
  const checks = await collectChecks();
  const check = checks.find((c) => c.id.toLowerCase() === id.toLowerCase());
  if (!check) throw new UsageError(unknownCheck(id, checks));
  const explanation = await explain(check);
  out(format === 'json' ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation));
  return exitCodes.done;
}

function unknownCheck(id: string, checks: readonly ListedCheck[]): string {
  const prefix = id.toUpperCase().split('-')[0] ?? '';
  const near = checks.filter((c) => c.id.startsWith(`${prefix}-`)).map((c) => c.id);
  return `no check '${id}'${near.length > 0 ? ` (${prefix}-*: ${near.join(', ')})` : ''}; conform --list shows every check`;
}

export async function explain(check: ListedCheck): Promise<Explanation> {
  const mutants = (await loadMutants()).filter((m) => m.kills.includes(check.id));
  return {
    id: check.id,
    level: check.level,
    sections: check.sections,
    area: check.area,
    title: check.title,
    clauses: clauses.filter((c) => c.checks.includes(check.id)).map(({ id, section, statement }) => ({ id, section, statement })),
    accepts: check.accepts ?? [],
    appliesTo: profileNames.filter((p) => missingCapabilities(p, check.requires ?? []).length === 0 && (check.appliesTo?.includes(p) ?? true)),
    needsOtherKey: check.needsOtherKey ?? false,
    mutants: mutants.map((m) => ({ id: m.id, description: m.description, profile: m.profile ?? 'primary' })),
    replay: `conform --target <name|url> --profile <primary|staging> --only ${check.id} --seed <seed of the failed run> [--fc-path <path>]`,
  };
}

export function renderExplanation(e: Explanation): string {
  const lines = [`${e.id} ${e.level} · ${e.sections.join(', ')} · ${e.area}`, `  ${e.title}`, ''];
  lines.push('What it enforces (the spec in our words):');
  if (e.clauses.length === 0) lines.push(`  the clauses of ${e.sections.join(', ')} named in its title (CONFORMANCE.md lists every clause)`);
  for (const c of e.clauses) lines.push(`  ${c.id} (${c.section}) ${c.statement}`);
  lines.push('', 'Where the spec leaves a choice, it accepts:');
  if (e.accepts.length === 0) lines.push('  (nothing listed in its metadata)');
  for (const a of e.accepts) lines.push(`  - ${a}`);
  lines.push(
    '',
    `Level: ${e.level === 'MUST' ? 'MUST: a failure means the target does not conform (exit 1)' : 'SHOULD: advice; a failure is reported but the verdict can still be "conforms"'}`,
  );
  lines.push(
    `Applies to: ${e.appliesTo.length > 0 ? `the ${e.appliesTo.join(' and ')} profile${e.appliesTo.length > 1 ? 's' : ''}` : 'no profile'}${e.needsOtherKey ? "; needs a second user's key (--other-key), else skipped" : ''}`,
  );
  lines.push('', 'Proven by the mutant(s) it fails (fixtures/mutants/, broken copies of the reference):');
  if (e.mutants.length === 0) lines.push('  none names it');
  for (const m of e.mutants) lines.push(`  ${m.id}${m.profile === 'primary' ? '' : ` (${m.profile})`}: ${m.description}`);
  lines.push('', 'Replay a failure (a failed check prints its exact command, and a curl per request):', `  ${e.replay}`);
  return `${lines.join('\n')}\n`;
}
