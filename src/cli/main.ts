import { rmSync } from 'node:fs';
import { prepareOutDir } from '../core/out-dir.ts';
import { join } from 'node:path';
import { describeRateLimit, ProgressReporter, renderAnnotations, renderJson, renderSummary, terminalStyle, writeReports } from '../../reporters/index.ts';
import { networkSecrets, resolveRunConfig, type RunConfig } from '../config/resolve.ts';
import { readDeclaredRateLimit, START_SHARE } from '../http/rate-policy.ts';
import { keyFingerprints, readJournalFile, writeJournalHeader } from '../safety/journal.ts';
import { NoVerdictError, UsageError } from '../core/errors.ts';
import { listChecks } from './list.ts';
import { printMatrix } from './matrix.ts';
import { openTarget, preflight, type OpenTarget } from '../runner/open-target.ts';
import { redactor } from '../core/redact.ts';
import { execute, version } from '../runner/execute.ts';
import { checkTimeout, SuiteRunner } from '../runner/vitest-host.ts';
import { settleJournal, unsettledItems } from '../safety/restore.ts';
import { exitCodes } from '../runner/verdict.ts';
import { commands, helpText, parseCommandLine, type ParsedArgs } from './args.ts';
import type { Io } from './io.ts';
import { integerOption } from '../config/options.ts';

export type { CommandIo, Io } from './io.ts';

/** Maps every outcome to an exit code, in this one place. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const secrets: string[] = [];
  const redact = (text: string) => redactor(secrets)(text);
  const out = (text: string) => void io.stdout.write(redact(text));
  const err = (text: string) => void io.stderr.write(redact(text));
  try {
    const args = parseCommandLine(argv);
    for (const key of [args.values.key, args.values['other-key'], io.env.CONFORM_API_KEY, io.env.CONFORM_OTHER_API_KEY]) {
      if (key) secrets.push(key);
    }
    if (args.values.help) return out(`${helpText()}\n`), 0;
    if (args.values.version) return out(`conform ${version()}\n`), 0;
    for (const flag of args.values.header ?? []) secrets.push(flag.slice(flag.indexOf(':') + 1).trim());
    switch (args.command) {
      case 'serve':
        return await serve(args.values, out);
      case 'matrix':
        return await printMatrix(out);
      case 'restore':
        return await restore(args.values, io, out, secrets);
      case 'diff':
        return await (await import('./diff.ts')).runDiff(args.values, { io, out, err, secrets });
      case 'pact':
        return await (await import('./pact.ts')).runPact(args.subcommand!, args.values, { io, out, err, secrets });
      case 'init':
        return await (await import('./init.ts')).runInit(args.values, { io, out, err, secrets });
      case 'explain':
        return await (await import('./explain.ts')).runExplain(args.argument!, args.values, out);
      case 'run':
        if (args.values.list) return await listChecks(args.values, out);
        return await run(resolveRunConfig(args.values, io.env, io.cwd), io, out, err, secrets);
      default:
        throw new UsageError(`unknown command (commands: ${Object.keys(commands).join(', ')})`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`conform: ${error.message}\n`);
      return exitCodes.usage;
    }
    if (error instanceof NoVerdictError) {
      err(`conform: no verdict: ${error.message}\n`);
      return exitCodes['no verdict'];
    }
    err(`conform: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodes['no verdict'];
  }
}

async function run(config: RunConfig, io: Io, stdout: (t: string) => void, err: (t: string) => void, secrets: string[]): Promise<number> {
  // `--out -`: stdout carries the JSON report only; every line for people goes to stderr.
  const out = config.reportToStdout ? err : stdout;
  const people = config.reportToStdout ? io.stderr : io.stdout;
  prepareOutDir(config.outDir);
  const journalPath = join(config.outDir, 'journal.jsonl');
  const unsettled = unsettledItems(journalPath);
  if (unsettled.length > 0) {
    throw new UsageError(`${journalPath} records ${unsettled.length} kept change(s) an earlier run did not restore; run: conform restore --journal ${journalPath} (with the same target and keys)`);
  }
  rmSync(journalPath, { force: true });

  const style = terminalStyle(io.stdout, io.env);
  const terminal = config.reporters.includes('terminal');
  const progress = terminal && !config.quiet;
  secrets.push(...networkSecrets(config.target));
  const target = await openTarget(config.target, { timeoutMs: config.timeoutMs, ...(progress ? { onRateLimit: (n) => out(`${style.paint('dim', describeRateLimit(n))}\n`) } : {}) });
  secrets.push(target.keys.primary, ...(target.keys.other ? [target.keys.other] : []));
  try {
    await preflight(target);
    const style = terminalStyle(people, io.env);
    const terminal = config.reporters.includes('terminal');
    const progress = terminal && !config.quiet;
    writeJournalHeader(journalPath, { url: target.baseUrl, profile: target.profile, keys: keyFingerprints(target.keys) });
    if (progress) out(`conform ${version()}: checking ${target.label} (${target.baseUrl}) against the ${target.profile} profile, seed ${config.seed}\n`);
    if (target.network?.insecure) err('conform: warning: --insecure: the target\'s TLS certificate is not verified\n');
    const declared = await readDeclaredRateLimit(target.api('primary')!);
    const declaredRps = declared ? declared.requests / declared.seconds : undefined;
    if (declared && progress) out(`the catalog declares a rate limit of ${declared.requests} requests per ${declared.seconds} s (${declared.where}): pacing at ${(START_SHARE * declaredRps!).toPrecision(2)} requests/s\n`);
    // Until the run installs its own handler below, a signal ends it with no verdict: nothing has changed yet.
    const whileStarting = (signal: NodeJS.Signals) => {
      err(`conform: ${signal} before any check ran; nothing was changed\n`);
      process.exit(exitCodes['no verdict']);
    };
    process.on('SIGINT', whileStarting);
    process.on('SIGTERM', whileStarting);
    const runner = await SuiteRunner.create({ checkTimeoutMs: checkTimeout(config.timeoutMs, config.deadlineSeconds) }).finally(() => {
      process.off('SIGINT', whileStarting);
      process.off('SIGTERM', whileStarting);
    });
    let interruptedBy: string | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (interruptedBy) process.exit(exitCodes['no verdict']);
      interruptedBy = signal;
      err(`conform: ${signal}: stopping after the checks in progress and restoring kept values (again to quit at once; then run conform restore)\n`);
      void runner.cancel();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const { result, harnessErrors } = await execute(runner, target, {
      seed: config.seed,
      runs: config.runs,
      timeoutMs: config.timeoutMs,
      deadline: Date.now() + config.deadlineSeconds * 1000,
      concurrency: config.concurrency,
      // A declared limit is a ceiling the run never goes above, and it starts a little below it.
      rps: declaredRps === undefined ? config.rps : config.rps > 0 ? Math.min(config.rps, declaredRps) : declaredRps,
      ...(declared ? { startRps: START_SHARE * declaredRps!, declaredRateLimit: { requests: declared.requests, seconds: declared.seconds } } : {}),
      maxRequests: config.maxRequests,
      interrupted: () => interruptedBy,
      ...(config.fcPath ? { fcPath: config.fcPath } : {}),
      only: config.only,
      skip: config.skip,
      gate: config.gate,
      waivers: config.waivers,
      journalPath,
      reporters: progress ? [new ProgressReporter(out, style, people.isTTY === true && !io.env.CI)] : [],
    }).finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      return runner.close();
    });
    for (const message of harnessErrors) err(`conform: harness error: ${message}\n`);
    const fileReporters = config.reportToStdout ? config.reporters.filter((r) => r !== 'json') : config.reporters;
    const written = writeReports(result, { outDir: config.outDir, reporters: fileReporters, env: io.env, redact: redactor(secrets) });
    if (config.reportToStdout) {
      stdout(renderJson(result));
      // The folder only held the journal; keep it when a kept value could not be put back.
      if (result.safety.problems.length === 0) rmSync(config.outDir, { recursive: true, force: true });
      else err(`conform: the journal of this run is ${journalPath}; run: conform restore --journal ${journalPath}\n`);
    }
    if (config.reporters.includes('github')) out(renderAnnotations(result));
    // Without the terminal reporter a person (or CI log) still gets the failures and the verdict line.
    out(renderSummary(result, style, { quiet: config.quiet || !terminal }));
    if (terminal && written.length > 0 && !config.quiet) out(`reports: ${written.join(', ')}\n`);
    return result.exitCode;
  } finally {
    await target.close();
  }
}

async function serve(values: ParsedArgs['values'], out: (t: string) => void): Promise<number> {
  const profile = values.profile ?? 'primary';
  if (profile !== 'primary' && profile !== 'staging') throw new UsageError(`--profile must be primary or staging, got '${profile}'`);
  const port = integerOption('port', values.port, 0, 65_535) ?? 0;
  const { startReference } = await import('../../fixtures/reference/server.ts');
  const reference = await startReference({ profile, port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use; pick another with --port, or --port 0 for any free port`);
    if (error.code === 'EACCES') throw new UsageError(`port ${port} needs privileges this user does not have; pick a port above 1023`);
    throw error;
  });
  out(`reference (${profile}) listening on ${reference.url}\n`);
  out(`keys: primary ${reference.keys.primary}  other ${reference.keys.other}  empty ${reference.keys.empty}\n`);
  out(`try: conform --target ${reference.url} --profile ${profile} --key <primary> --other-key <other>\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await reference.close();
  return 0;
}

async function restore(values: ParsedArgs['values'], io: Io, out: (t: string) => void, secrets: string[]): Promise<number> {
  if (!values.journal) throw new UsageError('restore needs --journal FILE');
  if (values.target === undefined) throw new UsageError('restore needs --target (the target of the interrupted run) and its keys');
  const config = resolveRunConfig(values, io.env, io.cwd);
  secrets.push(...networkSecrets(config.target));
  const journal = readJournalFile(io.cwd, values.journal);
  if (config.target.kind === 'remote') journal.assertSameRun({ url: config.target.baseUrl, profile: config.target.profile, keys: keyFingerprints(config.target.keys) });
  const target: OpenTarget = await openTarget(config.target, { onRateLimit: (n) => out(`${describeRateLimit(n)}\n`) });
  secrets.push(target.keys.primary);
  try {
    await preflight(target);
    const report = await settleJournal(journal.path, (user) => target.api(user));
    out(`restore: ${report.changedItems} item(s) in the journal, ${report.restoredAfterRun} put back, ${report.problems.length} problem(s)\n`);
    for (const problem of report.problems) out(`  ${problem}\n`);
    return report.problems.length === 0 ? 0 : exitCodes['no verdict'];
  } finally {
    await target.close();
  }
}
