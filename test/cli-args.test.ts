import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli/args.ts';
import { resolveRunConfig } from '../src/config/resolve.ts';
import { UsageError } from '../src/core/errors.ts';
import { selectionPattern } from '../src/config/selection.ts';

const cwd = new URL('..', import.meta.url).pathname;

describe('argv → options', () => {
  it.each([
    [['--target', 'http://x.test', '--key', 'k'], { command: 'run', target: 'http://x.test' }],
    [['serve', '--profile', 'staging'], { command: 'serve', profile: 'staging' }],
    [['--list', '--format', 'md'], { command: 'run', list: true, format: 'md' }],
    [['--only', 'AUTH-*', '--only', 'KEPT-001'], { command: 'run', only: ['AUTH-*', 'KEPT-001'] }],
    [
      ['--fail-on', 'should', '--allow-incomplete', '--waivers', 'w.json'],
      { command: 'run', 'fail-on': 'should', 'allow-incomplete': true, waivers: 'w.json' },
    ],
  ])('%j parses', (argv, expected) => {
    const { command, values } = parseCommandLine(argv);
    expect({ command, ...values }).toMatchObject(expected);
  });

  it.each([
    [['--nope'], /unknown option '--nope'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['--target'], /argument missing/],
    [['run', 'extra'], /unexpected argument 'extra'/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});

describe('configuration resolution', () => {
  const resolve = (argv: string[], env: Record<string, string> = {}) => resolveRunConfig(parseCommandLine(argv).values, env, cwd);

  it('defaults to the embedded reference with the primary profile', () => {
    expect(resolve([]).target).toEqual({ kind: 'embedded', profile: 'primary', label: 'embedded reference' });
  });

  it('takes a URL target with keys from the environment', () => {
    const config = resolve(['--target', 'http://127.0.0.1:9/api/'], { CONFORM_API_KEY: 'k1', CONFORM_OTHER_API_KEY: 'k2' });
    expect(config.target).toMatchObject({ kind: 'remote', baseUrl: 'http://127.0.0.1:9/api', keys: { primary: 'k1', other: 'k2' } });
  });

  it('prefers --key over the environment', () => {
    const config = resolve(['--target', 'http://a.test', '--key', 'flag'], { CONFORM_API_KEY: 'env' });
    expect(config.target).toMatchObject({ keys: { primary: 'flag' } });
  });

  it('reads named targets and their profile from the targets file', () => {
    const config = resolve(['--target', 'staging'], { CONFORM_STAGING_API_KEY: 's1' });
    expect(config.target).toMatchObject({ kind: 'remote', profile: 'staging', label: 'staging', keys: { primary: 's1' } });
    expect(resolve(['--target', 'staging', '--profile', 'primary'], { CONFORM_API_KEY: 'x' }).target).toMatchObject({ profile: 'primary' });
  });

  it('resolves one frozen plan that holds every secret: keys, extra header values, proxy passwords', () => {
    const plan = resolve(['--target', 'http://a.test', '--key', 'k-primary', '--other-key', 'k-other', '--header', 'X-Token: t-header'], {
      HTTPS_PROXY: 'http://u:p%40ss@proxy.test:8080',
    });
    expect(plan.secrets).toEqual(['t-header', 'p%40ss', 'p@ss', 'k-primary', 'k-other']);
    expect(Object.isFrozen(plan) && Object.isFrozen(plan.settings) && Object.isFrozen(plan.target)).toBe(true);
    expect(() => (plan.settings as { seed: number }).seed++).toThrow(TypeError);
  });

  it.each([
    [['--target', 'http://a.test'], {}, /no key/],
    [['--target', 'nowhere'], { CONFORM_API_KEY: 'k' }, /unknown target 'nowhere'/],
    [['--target', 'ftp://a.test'], { CONFORM_API_KEY: 'k' }, /only http and https/],
    [['--target', 'http://a.test?x=1'], { CONFORM_API_KEY: 'k' }, /must not carry a query/],
    [['--profile', 'prod'], {}, /--profile must be primary or staging/],
    [['--seed', 'abc'], {}, /--seed must be an integer/],
    [['--runs', '0'], {}, /--runs must be between 1/],
    [['--timeout', '5'], {}, /--timeout must be between/],
    [['--key', 'k'], {}, /need --target/],
    [['--target', 'primary', '--config', 'missing.json'], { CONFORM_API_KEY: 'k' }, /cannot read targets file/],
    [['--target', 'http://a.test', '--key', 'same', '--other-key', 'same'], {}, /different user/],
  ])('%j is a configuration error', (argv, env, message) => {
    expect(() => resolve(argv, env)).toThrow(UsageError);
    expect(() => resolve(argv, env)).toThrow(message);
  });
});

describe('check selection', () => {
  it('matches ids and globs at the start of a check name, case-insensitively', () => {
    const pattern = selectionPattern(['AUTH-*', 'kept-001'], ['AUTH-003'])!;
    expect(pattern.test('authentication (§5) AUTH-001 MUST x')).toBe(true);
    expect(pattern.test('kept toggle KEPT-001 MUST y')).toBe(true);
    expect(pattern.test('kept toggle KEPT-002 MUST y')).toBe(false);
    expect(pattern.test('authentication (§5) AUTH-003 MUST z')).toBe(false);
    expect(selectionPattern([], [])).toBeUndefined();
  });
});
