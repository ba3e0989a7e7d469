import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors.ts';
import { optionTable, type OptionName, type OptionSpec, type OptionValues } from '../config/options.ts';

export const commands = {
  run: 'run the checks against a target (the default command)',
  serve: 'run the embedded reference implementation standalone and print its URL and keys',
  restore: 'undo the kept changes recorded in a journal of an interrupted run',
  matrix: 'print the clause coverage matrix (Markdown): each spec statement and the checks that enforce it',
  diff: 'compare two deployments of one user (--target primary --against staging): ids, titles, projections and single reads',
  pact: "pact verify: verify the agent's Pact contract (pacts/agent-agent-api.json) against a target",
  init: 'write a commented conform.config.json (and with --workflow a GitHub workflow) from flags, or by asking on a terminal',
  explain: 'explain <ID>: what a check enforces, its level, what it accepts where the spec leaves a choice, the mutants that prove it, how to replay it',
  statement: 'statement <REPORT_DIR>: a conformance statement, badge and digest of a run; --verify <FILE> checks one (see conform statement --help)',
  compare: 'compare <report.json|statement>…: the checks × implementations matrix of several runs, as HTML, Markdown and JSON (see conform compare --help)',
} as const;

/** Commands that take a sub-command word: `conform pact verify`. */
const subcommands: Partial<Record<Command, readonly string[]>> = { pact: ['verify'] };
/** Commands that take one free argument: `conform explain KEPT-001`. */
const argumentOf: Partial<Record<Command, string>> = { explain: '<ID>' };
/** Commands that take any number of free arguments: `conform compare a/report.json b/report.json`. */
const manyArguments: ReadonlySet<Command> = new Set(['statement', 'compare']);
export type Command = keyof typeof commands;

export interface ParsedArgs {
  command: Command;
  subcommand?: string;
  /** The free argument of a command that takes one (explain's check id). */
  argument?: string;
  /** The free arguments of a command that takes any number (statement, compare). */
  inputs?: string[];
  values: OptionValues;
}

function parseStrictly(argv: readonly string[]) {
  try {
    return parseArgs({ args: joinNegativeValues(argv), options: optionTable, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    throw new UsageError(unknown ? `unknown option '${unknown[1]}' (see conform --help)` : message.split(/\.\s|\n/)[0]!);
  }
}

export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  const parsed = parseStrictly(argv);
  const [first, ...rest] = parsed.positionals;
  let command: Command = 'run';
  if (first !== undefined) {
    if (!Object.hasOwn(commands, first)) throw new UsageError(`unknown command '${first}' (commands: ${Object.keys(commands).join(', ')})`);
    command = first as Command;
  }
  // `conform pact --help`, `conform explain --help`: help needs no sub-command or argument.
  if (parsed.values.help === true) return { command, values: parsed.values as ParsedArgs['values'] };
  const allowed = subcommands[command];
  let subcommand: string | undefined;
  if (allowed) {
    subcommand = rest.shift();
    if (subcommand === undefined || !allowed.includes(subcommand)) {
      throw new UsageError(`${command} needs one of: ${allowed.map((s) => `${command} ${s}`).join(', ')}`);
    }
  }
  let argument: string | undefined;
  if (argumentOf[command] !== undefined) {
    argument = rest.shift();
    if (argument === undefined) throw new UsageError(`${command} needs an argument: conform ${command} ${argumentOf[command]}`);
  }
  if (manyArguments.has(command)) return { command, inputs: rest, values: parsed.values as ParsedArgs['values'] };
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  return { command, ...(subcommand ? { subcommand } : {}), ...(argument !== undefined ? { argument } : {}), values: parsed.values as ParsedArgs['values'] };
}

/**
 * `--seed -5` as `--seed=-5`: node's parser reads a value that starts with a dash as an option and
 * refuses it as ambiguous. Only a negative number after an option that takes a value is joined.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([a-z-]+)$/.exec(argv[i]!)?.[1];
    const spec = name !== undefined && Object.hasOwn(optionTable, name) ? (optionTable as Record<string, OptionSpec>)[name] : undefined;
    const next = argv[i + 1];
    if (spec?.type === 'string' && next !== undefined && /^-\d+$/.test(next)) {
      joined.push(`${argv[i]}=${next}`);
      i++;
    } else {
      joined.push(argv[i]!);
    }
  }
  return joined;
}

/** How a target is reached: what every command that talks to a deployment reads. */
const TARGET_OPTIONS: readonly OptionName[] = ['target', 'profile', 'key', 'config', 'timeout', 'header', 'ca-cert', 'insecure'];

/** The options each command other than run reads; `conform <command> --help` lists these. */
const commandOptions: Record<Exclude<Command, 'run'>, readonly OptionName[]> = {
  serve: ['port', 'profile'],
  restore: ['journal', ...TARGET_OPTIONS, 'other-key'],
  matrix: [],
  diff: [...TARGET_OPTIONS, 'against', 'against-key', 'against-profile', 'ignore-field', 'journal', 'seed', 'max-requests', 'out', 'reporter'],
  pact: [...TARGET_OPTIONS, 'provider-states'],
  init: ['target', 'profile', 'config', 'workflow', 'force'],
  explain: ['format'],
  statement: ['out', 'verify'],
  compare: ['label', 'out'],
};

/** Options that belong to one command only, left out of the run's help. */
const notForRun = new Set<OptionName>([
  'port',
  'journal',
  'against',
  'against-key',
  'against-profile',
  'ignore-field',
  'provider-states',
  'workflow',
  'force',
  'verify',
  'label',
]);

function optionLines(names: readonly OptionName[]): string[] {
  return names.map((name) => {
    const spec: OptionSpec = optionTable[name];
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.arg ? ` ${spec.arg}` : ''}`;
    return `  ${flag.padEnd(30)} ${spec.help.replace(/^[a-z ,/]+: /, '')}`;
  });
}

/** The help of one command: what it does, its usage, and only the options it reads. */
function commandHelp(command: Exclude<Command, 'run'>): string {
  const sub = subcommands[command] ? ` ${subcommands[command]!.join('|')}` : '';
  const argument = argumentOf[command] ? ` ${argumentOf[command]}` : '';
  const options = commandOptions[command];
  return [
    `Usage: conform ${command}${sub}${argument}${options.length > 0 ? ' [options]' : ''}`,
    '',
    `${command}: ${commands[command]}`,
    '',
    'Options:',
    ...optionLines([...options, 'help']),
    '',
    'conform --help lists every command.',
  ].join('\n');
}

export function helpText(command: Command = 'run'): string {
  if (command !== 'run') return commandHelp(command);
  const lines = ['Usage: conform [command] [options]', '', 'Commands:'];
  for (const [name, help] of Object.entries(commands)) lines.push(`  ${name.padEnd(10)} ${help}`);
  lines.push('', 'Options:');
  lines.push(...optionLines((Object.keys(optionTable) as OptionName[]).filter((name) => !notForRun.has(name))));
  lines.push('', 'conform <command> --help shows the options of one command.');
  lines.push('', 'Exit codes: 0 conforms, 1 a check failed, 2 usage or configuration error (or no Agent API at the URL), 3 incomplete or no verdict.');
  return lines.join('\n');
}
