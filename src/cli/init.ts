import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { CONFIG_SCHEMA_FILE, configFileProblem } from '../config/schema.ts';
import { DEFAULT_CONFIG_FILE, DEFAULT_KEY_ENV, DEFAULT_OTHER_KEY_ENV, parseBaseUrl } from '../config/resolve.ts';
import { PromptCancelled, UsageError } from '../core/errors.ts';
import { PACKAGE_NAME } from '../core/package-name.ts';
import { isProfileName, type ProfileName } from '../spec/profiles.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './io.ts';
import { exitCodes } from '../runner/verdict.ts';
import { packageRoot } from '../runner/vitest-host.ts';

export const WORKFLOW_FILE = '.github/workflows/conform.yml';

/** Asks one question and returns the answer ('' for none). */
export type Ask = (question: string) => Promise<string>;

export interface InitAnswers {
  url: string;
  profile: ProfileName;
  workflow: boolean;
  /** The `uses:` reference of the conform Action in the workflow; set when workflow is. */
  action?: string;
}

/**
 * `conform init`: writes a commented conform.config.json for one target (and with --workflow a gated
 * GitHub workflow). Flags answer the questions; on a terminal the missing ones are asked.
 */
export async function runInit(values: ParsedArgs['values'], ctx: CommandIo, ask?: Ask): Promise<number> {
  const interactive = ask ?? terminalAsk(ctx);
  const answers = await gatherAnswers(values, interactive, ctx.io.cwd);
  const configPath = resolve(ctx.io.cwd, values.config ?? DEFAULT_CONFIG_FILE);
  const files: [string, string][] = [[configPath, configText(answers, configPath)]];
  if (answers.workflow) files.push([resolve(ctx.io.cwd, WORKFLOW_FILE), workflowText(answers, relative(ctx.io.cwd, configPath))]);
  else if (values.action !== undefined) throw new UsageError('--action goes with --workflow');
  const existing = files.map(([path]) => path).filter((path) => existsSync(path));
  if (existing.length > 0 && values.force !== true) throw new UsageError(`${existing.join(' and ')} already exist(s); --force overwrites`);
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    ctx.out(`wrote ${relative(ctx.io.cwd, path) || path}\n`);
  }
  const name = targetName(answers.profile);
  const keyEnv = keyEnvs(answers.profile);
  ctx.out(
    [
      '',
      'next:',
      `  export ${keyEnv.key}=…           # the agent key of the user under test (never stored in the file)`,
      `  export ${keyEnv.other}=…     # a second user's key, for the cross-user checks (without it: incomplete, exit 3)`,
      `  npx ${PACKAGE_NAME} --target ${name}${values.config ? ` --config ${values.config}` : ''}`,
      ...(answers.workflow ? [`  add the secrets ${keyEnv.key} and ${keyEnv.other} to the repository, then push ${WORKFLOW_FILE}`] : []),
      '',
    ].join('\n'),
  );
  return exitCodes.done;
}

async function gatherAnswers(values: ParsedArgs['values'], ask: Ask | undefined, cwd: string): Promise<InitAnswers> {
  let url = values.target;
  if (url === undefined) {
    if (!ask) throw new UsageError('init needs --target <base URL> of the deployment to check (on a terminal it asks)');
    url = (await ask('Base URL of the deployment to check (e.g. https://agent.example.com): ')).trim();
  }
  const baseUrl = parseBaseUrl(url, 'init --target');
  let profile = values.profile;
  if (profile === undefined && ask) profile = (await ask('Profile, primary or staging [primary]: ')).trim() || 'primary';
  profile ??= 'primary';
  if (!isProfileName(profile)) throw new UsageError(`--profile must be primary or staging, got '${profile}'`);
  let workflow = values.workflow === true;
  if (values.workflow === undefined && ask)
    workflow = /^y(es)?$/i.test((await ask(`Also write ${WORKFLOW_FILE}, a workflow that gates on conform? [y/N]: `)).trim());
  if (!workflow) return { url: baseUrl, profile, workflow };
  return { url: baseUrl, profile, workflow, action: await actionReference(values.action, ask, cwd) };
}

const PUBLISHED_REF = /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[\w./-]+$/;

/**
 * The workflow's `uses:` for the conform Action. The Action is not published yet, so nothing is guessed:
 * a repository that holds conform (a fork at its root, or a vendored copy) gets `./` or `./<path>`, which
 * resolves after actions/checkout; anything else must be named with --action, or init writes no workflow.
 */
export async function actionReference(given: string | undefined, ask: Ask | undefined, cwd: string): Promise<string> {
  let ref = given?.trim() || (given === undefined ? localAction(cwd) : undefined);
  if (ref === undefined && ask)
    ref = (await ask("The conform Action's uses: reference (./path of conform's copy in this repository, or owner/repo@ref): ")).trim();
  if (!ref)
    throw new UsageError(
      `init --workflow needs --action <ref>: this folder holds no copy of conform's action.yml and ${PACKAGE_NAME}'s Action is not published; ` +
        'pass ./<path> of a vendored copy or fork, or owner/repo@ref of a repository that hosts it',
    );
  if (ref.startsWith('./')) {
    const path = resolve(cwd, ref);
    if (!existsSync(join(path, 'action.yml')))
      throw new UsageError(`--action ${ref}: no action.yml at ${path}; uses: ./… is resolved from the repository root`);
    return ref.endsWith('/') && ref !== './' ? ref.slice(0, -1) : ref;
  }
  if (!PUBLISHED_REF.test(ref)) throw new UsageError(`--action must be ./<path> or owner/repo@ref, got '${ref}'`);
  return ref;
}

/** `./` in a fork of conform; `./<path>` when the running copy of conform lies inside cwd, outside node_modules (vendored). */
function localAction(cwd: string): string | undefined {
  if (isConformAction(cwd)) return './';
  const path = relative(resolve(cwd), packageRoot).split(sep).join('/').replace(/\/$/, '');
  if (path.startsWith('..') || path.split('/').includes('node_modules') || !isConformAction(packageRoot)) return undefined;
  return path === '' ? './' : `./${path}`;
}

function isConformAction(folder: string): boolean {
  try {
    return (
      existsSync(join(folder, 'action.yml')) && (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string }).name === PACKAGE_NAME
    );
  } catch {
    return false;
  }
}

function terminalAsk(ctx: CommandIo): Ask | undefined {
  const stdin = ctx.io.stdin;
  if (!stdin?.isTTY || !ctx.io.stderr.isTTY) return undefined;
  return async (question) => {
    // Both ends are terminals (checked above), so readline reads keys itself and Ctrl-C reaches it, not the process.
    const output = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void ctx.io.stderr.write(chunk.toString())) });
    const rl = createInterface({ input: stdin, output, terminal: true });
    const cancel = new AbortController();
    rl.on('SIGINT', () => cancel.abort());
    rl.on('close', () => cancel.abort());
    try {
      return await rl.question(question, { signal: cancel.signal });
    } catch (error) {
      if (cancel.signal.aborted) throw new PromptCancelled('cancelled at the prompt');
      throw error;
    } finally {
      rl.close();
    }
  };
}

const targetName = (profile: ProfileName): string => profile;

function keyEnvs(profile: ProfileName): { key: string; other: string } {
  return profile === 'primary'
    ? { key: DEFAULT_KEY_ENV, other: DEFAULT_OTHER_KEY_ENV }
    : { key: 'CONFORM_STAGING_API_KEY', other: 'CONFORM_STAGING_OTHER_API_KEY' };
}

/**
 * `$schema` relative to the config file, so an editor finds the schema of the package installed beside
 * it; a package elsewhere (npx's cache, a global install) gets the path a local install would have.
 */
function schemaReference(configPath: string): string {
  const path = relative(dirname(configPath), CONFIG_SCHEMA_FILE).split(sep).join('/');
  return path.startsWith('..') ? `./node_modules/${PACKAGE_NAME}/conform.config.schema.json` : `./${path}`;
}

/** The config file: JSON with "$comment" entries, which the schema allows on every object and conform ignores. */
export function configText(answers: InitAnswers, configPath: string): string {
  const keyEnv = keyEnvs(answers.profile);
  const config = {
    $schema: schemaReference(configPath),
    $comment: [
      `Targets for conform, written by conform init. Check one with: npx ${PACKAGE_NAME} --target <name>`,
      'Keys are never stored here: keyEnv and otherKeyEnv name the environment variables (CI secrets) that hold them.',
      'Optional per target: "headers", each header name mapped to the variable that holds its value (e.g. a gateway token).',
      'Optional at the top: "waivers", the path of a waivers file. Any object takes "$comment" lines like these.',
    ],
    targets: {
      [targetName(answers.profile)]: {
        $comment:
          answers.profile === 'primary'
            ? 'profile primary holds the deployment to the whole spec; otherKeyEnv is optional and unlocks the cross-user checks'
            : 'profile staging holds the deployment to the staging subset (§9); otherKeyEnv is optional and unlocks the cross-user checks',
        url: answers.url,
        profile: answers.profile,
        keyEnv: keyEnv.key,
        otherKeyEnv: keyEnv.other,
        description: `${answers.profile === 'primary' ? 'Primary' : 'Staging'} deployment`,
      },
    },
  };
  const problem = configFileProblem(config);
  if (problem !== undefined) throw new Error(`conform init built an invalid config: ${problem}`);
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** A workflow that runs the conform Action against the target and uploads the report folder. */
export function workflowText(answers: InitAnswers, configFile: string): string {
  if (!answers.action) throw new Error('workflowText needs the Action reference');
  const keyEnv = keyEnvs(answers.profile);
  const local = answers.action.startsWith('./');
  const configLine = configFile === DEFAULT_CONFIG_FILE ? [] : [`          config: ${configFile}`];
  return [
    '# Written by conform init. A failing check (exit 1), a configuration error (2) or no verdict (3)',
    '# fails this job; make your deployment job `needs: conform` to gate on it.',
    'name: conformance',
    'on:',
    '  push:',
    '    branches: [main]',
    '  pull_request:',
    '  workflow_dispatch:',
    'jobs:',
    '  conform:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    `      - uses: actions/checkout@v4   # for ${local ? `the Action's copy (${answers.action}) and ` : ''}${configFile}`,
    `      - uses: ${answers.action}${local ? `   # conform's Action; once published, owner/repo@ref of its repository` : ''}`,
    '        id: conform',
    '        with:',
    `          target: ${targetName(answers.profile)}`,
    ...configLine,
    `          key: \${{ secrets.${keyEnv.key} }}`,
    `          other-key: \${{ secrets.${keyEnv.other} }}`,
    '      - uses: actions/upload-artifact@v4',
    '        if: always()',
    '        with:',
    '          name: conform-report',
    '          path: ${{ steps.conform.outputs.report-dir }}',
    '',
  ].join('\n');
}
