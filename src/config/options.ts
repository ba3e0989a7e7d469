import { UsageError } from '../core/errors.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  arg?: string;
  help: string;
  multiple?: boolean;
  short?: string;
}

/**
 * Generated cases per property when --runs is not given: the self-test runs as many (scripts/self-test-worker.ts),
 * so every kill it proves holds at the CLI's own count.
 */
export const DEFAULT_RUNS = 15;
/** --timeout and --deadline when not given. */
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_SECONDS = 900;

/** --timeout (per request, ms) and --deadline (the run, s), with their defaults: the run plan and src/cli/prestart.ts read them alike. */
export function timeLimitsOf(values: Pick<OptionValues, 'timeout' | 'deadline'>): { timeoutMs: number; deadlineSeconds: number } {
  return {
    timeoutMs: integerOption('timeout', values.timeout, 100, 600_000) ?? DEFAULT_TIMEOUT_MS,
    deadlineSeconds: integerOption('deadline', values.deadline, 1, 86_400) ?? DEFAULT_DEADLINE_SECONDS,
  };
}

/**
 * Cases per property in a budgeted run (its checks run lean, TargetContext.lean): a property's requests
 * grow with its runs while most of its kills come on the first ones; the budget table
 * (src/runner/budget-estimates.json) measures what the checks still find at this count.
 */
export const LEAN_RUNS = 2;

/** Every option, declared once: parsing and --help both come from this table. */
export const optionTable = {
  target: { type: 'string', arg: '<name|url>', help: 'named target from the config file, or a base URL; default: the embedded reference' },
  profile: { type: 'string', arg: 'primary|staging', help: "which deployment profile to hold the target to (default: the target's, else primary)" },
  key: { type: 'string', arg: '<key>', help: 'agent key of the user under test (fallback: CONFORM_API_KEY)' },
  'other-key': { type: 'string', arg: '<key>', help: "a second user's key; unlocks the cross-user checks (fallback: CONFORM_OTHER_API_KEY)" },
  config: { type: 'string', arg: '<file>', help: 'targets file (default: ./conform.config.json)' },
  out: { type: 'string', arg: '<dir>', help: 'report folder (default: ./conform-report); - prints the JSON report on stdout' },
  seed: { type: 'string', arg: '<n>', help: 'fast-check seed; replays the generated cases of an earlier run' },
  'fc-path': { type: 'string', arg: '<path>', help: 'fast-check counterexample path to replay (with --only and --seed)' },
  'fc-replay-path': {
    type: 'string',
    arg: '<path>',
    help: "a model-based check's command replay path, printed with its --fc-path (with --only, --seed and --fc-path)",
  },
  runs: { type: 'string', arg: '<n>', help: `generated cases per property (default ${DEFAULT_RUNS})` },
  only: { type: 'string', arg: '<ids>', multiple: true, help: 'run only these check ids or globs, comma-separated (e.g. AUTH-*,KEPT-001)' },
  skip: { type: 'string', arg: '<ids>', multiple: true, help: 'leave out these check ids or globs' },
  list: { type: 'boolean', help: 'list the checks (id, level, section, title) without running them' },
  format: { type: 'string', arg: 'text|md|json', help: 'output format of --list (default text)' },
  timeout: { type: 'string', arg: '<ms>', help: 'per-request timeout in milliseconds (default 10000)' },
  deadline: {
    type: 'string',
    arg: '<s>',
    help: 'overall time limit of the run in seconds; past it nothing more is sent and the run ends with no verdict (default 900)',
  },
  concurrency: { type: 'string', arg: '<n>', help: 'requests in flight at most (default 6 for remote targets, 8 for the reference)' },
  rps: { type: 'string', arg: '<n>', help: 'requests per second at most, 0 for no limit (default 100 for remote targets, 0 for the reference)' },
  port: { type: 'string', arg: '<n>', help: 'serve: port of the reference (default: an ephemeral port)' },
  journal: {
    type: 'string',
    arg: '<file>',
    help: "a run's journal.jsonl: restore undoes the changes it records; diff does not count unnamed fields of the items it shows toggled and put back (default for diff: ./conform-report/journal.jsonl if present)",
  },
  'ignore-field': { type: 'string', arg: '<name>', multiple: true, help: 'diff: a field whose differences do not count (repeatable)' },
  against: { type: 'string', arg: '<name|url>', help: "diff: the second deployment (e.g. staging), read with the same user's key" },
  'against-key': {
    type: 'string',
    arg: '<key>',
    help: 'diff: the key on the --against deployment, if it differs (fallback: its keyEnv, then CONFORM_API_KEY)',
  },
  reporter: {
    type: 'string',
    arg: '<names>',
    multiple: true,
    help: 'reports to write, comma-separated: terminal, json, junit, html, github (default: terminal,json,junit,html; github added when GITHUB_ACTIONS=true)',
  },
  quiet: { type: 'boolean', short: 'q', help: 'no progress lines; print only the failures, what could not be judged, waivers to act on, and the verdict' },
  header: {
    type: 'string',
    arg: "'Name: value'",
    multiple: true,
    help: 'an extra header sent with every request (repeatable), e.g. a gateway token; the value is masked in every output',
  },
  'ca-cert': { type: 'string', arg: '<file>', help: 'PEM file of a certificate authority to trust besides the system ones (private CAs)' },
  insecure: { type: 'boolean', help: "do not verify the target's TLS certificate (last resort; prefer --ca-cert)" },
  'max-requests': { type: 'string', arg: '<n>', help: 'budget of requests for the run, full-collection walks included (default 2500)' },
  budget: {
    type: 'string',
    arg: '<n>',
    help: `send at most N requests in all, pre-flight included: the checks worth most per request run first (every MUST section judged once before any twice), lean (properties at ${LEAN_RUNS} cases, smaller samples), the rest are listed as not judged (budget) and the run is incomplete (exit 3) unless --allow-incomplete. Restores of kept values are always sent, even past N (safety first)`,
  },
  // The gate: what fails a run (stream i13b).
  'fail-on': {
    type: 'string',
    arg: 'must|should',
    help: 'which failed checks fail the run: must (default; SHOULD failures are advice) or should (SHOULD failures gate too)',
  },
  'allow-incomplete': {
    type: 'boolean',
    help: 'let a run pass although checks could not be judged for an absent precondition (no second key, empty collection …) or a spent --budget; they are still listed, and the verdict says it is partial',
  },
  waivers: {
    type: 'string',
    arg: '<file>',
    help: 'waivers file (JSON, see waivers.schema.json): checks whose failure is accepted until a date, with a reason',
  },
  'provider-states': {
    type: 'string',
    arg: '<module>',
    help: 'pact verify: a module of provider-state handlers that replace the built-in ones of the same name (see README)',
  },
  // init, explain and diff (issue 17)
  'against-profile': {
    type: 'string',
    arg: '<profile>',
    help: "diff: the profile to hold --against to (default: its targets-file entry's, else staging); primary compares two primaries",
  },
  workflow: { type: 'boolean', help: 'init: also write .github/workflows/conform.yml, a gated workflow that uses the conform Action' },
  action: {
    type: 'string',
    arg: '<ref>',
    help: "init --workflow: the conform Action's `uses:` reference, ./ or ./path for a copy in the repository, owner/repo@ref once published (default: found when the workflow's repository holds conform)",
  },
  force: { type: 'boolean', help: 'init: overwrite files that already exist' },
  verify: { type: 'string', arg: '<file>', help: 'statement: verify this conformance statement against its digests and the installed suite (exit 0/1)' },
  label: {
    type: 'string',
    arg: '<name>',
    multiple: true,
    help: 'compare: the name of the next implementation, in the order of the files (repeatable; default: its target)',
  },
  help: { type: 'boolean', short: 'h', help: "show this help; after statement or compare: that command's own help" },
  version: { type: 'boolean', help: 'show the version' },
} satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof optionTable;

/** The options as parsed from a command line: each typed after its row of the table. */
export type OptionValues = {
  [K in OptionName]?: (typeof optionTable)[K] extends { type: 'boolean' } ? boolean : (typeof optionTable)[K] extends { multiple: true } ? string[] : string;
};

export function integerOption(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be an integer, got '${value}'`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${value}`);
  return n;
}
