import { integerOption, type ParsedArgs } from '../cli/args.ts';
import { DEFAULT_MAX_REQUESTS, loadTargets, parseBaseUrl, resolveNetwork, resolveRunConfig, type TargetChoice } from '../config.ts';
import { UsageError } from '../errors.ts';

/** Single reads compared per diff: a seeded sample, so the request count stays bounded. */
export const DIFF_SAMPLE = 10;

export interface DiffConfig {
  target: TargetChoice;
  against: TargetChoice;
  seed: number;
  sample: number;
  maxRequests: number;
  timeoutMs: number;
}

type Env = Record<string, string | undefined>;

/**
 * Both sides of `conform diff`. The target resolves exactly as for a run (--key, its keyEnv,
 * CONFORM_API_KEY, --profile); --against takes --against-key, then its own keyEnv, then the
 * target's key, and is held to the staging profile unless its targets-file entry says otherwise.
 * Neither given: the embedded reference in primary mode against itself in staging mode.
 */
export function resolveDiffConfig(values: ParsedArgs['values'], env: Env, cwd: string): DiffConfig {
  const hasTarget = values.target !== undefined;
  if (hasTarget !== (values.against !== undefined)) {
    throw new UsageError('diff needs both --target and --against (or neither, to compare the embedded reference in primary mode with itself in staging mode)');
  }
  if (!hasTarget && values['against-key'] !== undefined) throw new UsageError('--against-key needs --against');
  const run = resolveRunConfig(values, env, cwd);
  const against: TargetChoice = run.target.kind === 'embedded'
    ? { kind: 'embedded', profile: 'staging', label: 'embedded reference' }
    : resolveAgainst(values, env, cwd, run.target.keys.primary);
  return {
    target: run.target,
    against,
    seed: run.seed,
    sample: DIFF_SAMPLE,
    maxRequests: integerOption('max-requests', values['max-requests'], 10, 1_000_000) ?? DEFAULT_MAX_REQUESTS,
    timeoutMs: run.timeoutMs,
  };
}

function resolveAgainst(values: ParsedArgs['values'], env: Env, cwd: string, targetKey: string): TargetChoice {
  const name = values.against!;
  const explicit = nonEmpty(values['against-key']);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    const baseUrl = parseBaseUrl(name, '--against');
    return { kind: 'remote', baseUrl, profile: 'staging', label: baseUrl, keys: { primary: explicit ?? targetKey }, network: resolveNetwork(values, env, cwd) };
  }
  const entry = loadTargets(values.config, cwd)[name];
  if (!entry) throw new UsageError(`unknown --against target '${name}': not a URL and not a name in the targets file`);
  const baseUrl = parseBaseUrl(entry.url, `target '${name}'`);
  const key = explicit ?? (entry.keyEnv ? nonEmpty(env[entry.keyEnv]) : undefined) ?? targetKey;
  return { kind: 'remote', baseUrl, profile: entry.profile ?? 'staging', label: name, keys: { primary: key }, network: resolveNetwork(values, env, cwd, entry, name) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
