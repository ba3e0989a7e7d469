import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { integerOption, type OptionValues } from '../config/options.ts';
import { DEFAULT_MAX_REQUESTS, resolveRemoteTarget, resolveReporters, resolveRunConfig, targetSecrets, type RemoteTarget } from '../config/resolve.ts';
import type { TargetChoice } from '../config/plan.ts';
import { UsageError } from '../core/errors.ts';
import { isProfileName, type ProfileName } from '../spec/profiles.ts';
import type { ReporterName } from '../config/plan.ts';

/** Single reads compared per diff: a seeded sample, so the request count stays bounded. */
export const DIFF_SAMPLE = 10;

export interface DiffConfig {
  target: TargetChoice;
  against: TargetChoice;
  seed: number;
  sample: number;
  maxRequests: number;
  timeoutMs: number;
  /** Where diff.json goes: a folder, or stdout for `--out -`; absent: no JSON. */
  out?: { dir: string } | { stdout: true };
  /** Of the run's reporters, the ones a diff writes: terminal (text), json (diff.json), github (step summary). */
  reporters: ReporterName[];
  /** Fields named with --ignore-field. */
  ignoreFields: string[];
  /** Journals of earlier runs whose toggled-and-restored items are known; `explicit` when given with --journal. */
  journals: { path: string; explicit: boolean }[];
  /** Both sides' keys, extra header values and proxy passwords. */
  secrets: readonly string[];
}

/** Reporters a diff can render; junit and html describe checks, which a diff has none of. */
const DIFF_REPORTERS: readonly ReporterName[] = ['terminal', 'json', 'github'];

type Env = Record<string, string | undefined>;

/**
 * Both sides of `conform diff`. The target resolves exactly as for a run (--key, its keyEnv,
 * CONFORM_API_KEY, --profile); --against takes --against-key, then its own keyEnv, then the
 * target's key, and is held to the staging profile unless its targets-file entry says otherwise.
 * Neither given: the embedded reference in primary mode against itself in staging mode.
 */
export function resolveDiffConfig(values: OptionValues, env: Env, cwd: string): DiffConfig {
  const hasTarget = values.target !== undefined;
  if (hasTarget !== (values.against !== undefined)) {
    throw new UsageError('diff needs both --target and --against (or neither, to compare the embedded reference in primary mode with itself in staging mode)');
  }
  if (!hasTarget && values['against-key'] !== undefined) throw new UsageError('--against-key needs --against');
  const againstProfile = values['against-profile'];
  if (againstProfile !== undefined && !isProfileName(againstProfile))
    throw new UsageError(`--against-profile must be primary or staging, got '${againstProfile}'`);
  const run = resolveRunConfig({ ...values, out: undefined, reporter: undefined }, env, cwd);
  const against: TargetChoice =
    run.target.kind === 'embedded'
      ? { kind: 'embedded', profile: againstProfile ?? 'staging', label: 'embedded reference' }
      : resolveAgainst(values, env, cwd, run.target, againstProfile);
  return {
    ...diffOutput(values, env, cwd),
    target: run.target,
    against,
    seed: run.settings.seed,
    sample: DIFF_SAMPLE,
    maxRequests: integerOption('max-requests', values['max-requests'], 10, 1_000_000) ?? DEFAULT_MAX_REQUESTS,
    timeoutMs: run.settings.timeoutMs,
    ignoreFields: ignoreFields(values['ignore-field'] ?? []),
    journals: journalFiles(values.journal, cwd),
    secrets: [run.target, against].flatMap(targetSecrets),
  };
}

/** --against resolves like --target; only its key comes from --against-key, its entry's keyEnv, or else the target's key. */
function resolveAgainst(values: OptionValues, env: Env, cwd: string, target: RemoteTarget, profileFlag: ProfileName | undefined): TargetChoice {
  const explicit = nonEmpty(values['against-key']);
  return resolveRemoteTarget(values, env, cwd, {
    name: values.against!,
    flag: '--against',
    profileFlag,
    defaultProfile: 'staging',
    keys: (entry) => {
      if (explicit) return { primary: explicit, keySource: '--against-key' };
      const fromEntry = entry?.keyEnv ? nonEmpty(env[entry.keyEnv]) : undefined;
      if (fromEntry) return { primary: fromEntry, keySource: entry!.keyEnv };
      return { primary: target.keys.primary, ...(target.keySource ? { keySource: target.keySource } : {}) };
    },
  });
}

/**
 * `--out DIR` writes DIR/diff.json and `--out -` prints that JSON on stdout (the text then goes to
 * stderr). `--reporter` picks among terminal, json and github; json without --out writes ./conform-report.
 */
function diffOutput(values: OptionValues, env: Env, cwd: string): Pick<DiffConfig, 'out' | 'reporters'> {
  const chosen = resolveReporters(values.reporter, env);
  const unsupported = chosen.filter((r) => !DIFF_REPORTERS.includes(r));
  if (values.reporter !== undefined && unsupported.length > 0)
    throw new UsageError(`diff writes the reporters ${DIFF_REPORTERS.join(', ')}; not ${unsupported.join(', ')}`);
  const reporters = chosen.filter((r) => DIFF_REPORTERS.includes(r) && (r !== 'json' || values.reporter !== undefined));
  if (values.out !== undefined && !reporters.includes('json')) reporters.push('json');
  if (!reporters.includes('json')) return { reporters };
  const out = values.out === '-' ? { stdout: true as const } : { dir: resolve(cwd, values.out ?? 'conform-report') };
  return { out, reporters };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** `--ignore-field a --ignore-field b` or `--ignore-field a,b`. */
function ignoreFields(values: readonly string[]): string[] {
  const fields = values.flatMap((v) => v.split(',')).map((f) => f.trim());
  if (fields.some((f) => f === '')) throw new UsageError('--ignore-field needs a field name');
  return [...new Set(fields)];
}

/** --journal FILE, else the journal a run in this folder leaves in ./conform-report, when there is one. */
function journalFiles(flag: string | undefined, cwd: string): DiffConfig['journals'] {
  if (flag !== undefined) {
    const path = resolve(cwd, flag);
    if (!existsSync(path)) throw new UsageError(`--journal: no journal at ${path}`);
    return [{ path, explicit: true }];
  }
  const path = resolve(cwd, 'conform-report', 'journal.jsonl');
  return existsSync(path) ? [{ path, explicit: false }] : [];
}
