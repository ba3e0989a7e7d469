import { rmSync } from 'node:fs';
import { prepareOutDir } from '../core/out-dir.ts';
import { join } from 'node:path';
import { describeRateLimit, ProgressReporter } from '../../reporters/progress.ts';
import { terminalStyle } from '../../reporters/style.ts';
import { commandLineSecrets, resolveRunConfig } from '../config/resolve.ts';
import type { RunPlan } from '../config/plan.ts';
import { declaredRateLimitOf, START_SHARE } from '../http/rate-policy.ts';
import { keyFingerprints, readJournalFile, writeJournalHeader } from '../safety/journal.ts';
import { NoVerdictError, PromptCancelled, UsageError } from '../core/errors.ts';
import { listChecks } from './list.ts';
import { openTarget, prefetchSharedReads, preflight, readCatalog, type OpenTarget } from '../runner/open-target.ts';
import { redactor } from '../core/redact.ts';
import { execute, version } from '../runner/execute.ts';
import { checkTimeout, SuiteRunner } from '../runner/vitest-host.ts';
import { settleJournal, unsettledItems } from '../safety/restore.ts';
import { exitCodes } from '../runner/verdict.ts';
import { commands, helpText, parseCommandLine, type ParsedArgs } from './args.ts';
import { vendorHelp } from './vendor-help.ts';
import type { CommandIo, Io } from './io.ts';
import type { Prestarted } from './prestart.ts';
import { integerOption } from '../config/options.ts';
import { PACKAGE_NAME } from '../core/package-name.ts';

export type { CommandIo, Io } from './io.ts';

/** Maps every outcome to an exit code, in this one place. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let secrets: readonly string[] = [];
  const redact = (text: string) => redactor(secrets)(text);
  const out = (text: string) => void io.stdout.write(redact(text));
  const err = (text: string) => void io.stderr.write(redact(text));
  const ctx: CommandIo = { io, out, err, redact, mask: (more) => void (secrets = [...secrets, ...more]) };
  try {
    const args = parseCommandLine(argv);
    ctx.mask(commandLineSecrets(args.values, io.env));
    if (args.values.help) return out(`${vendorHelp[args.command] ?? helpText(args.command)}\n`), exitCodes.done;
    if (args.values.version) return out(`conform (${PACKAGE_NAME}) ${version()}\n`), exitCodes.done;
    switch (args.command) {
      case 'serve':
        return await serve(args.values, out);
      case 'matrix':
        return await (await import('./matrix.ts')).printMatrix(out);
      case 'restore':
        return await restore(args.values, ctx);
      case 'diff':
        return await (await import('./diff.ts')).runDiff(args.values, ctx);
      case 'pact':
        return await (await import('./pact.ts')).runPact(args.subcommand!, args.values, ctx);
      case 'init':
        return await (await import('./init.ts')).runInit(args.values, ctx);
      case 'explain':
        return await (await import('./explain.ts')).runExplain(args.argument!, args.values, out);
      case 'statement':
        return await (await import('./vendor.ts')).runStatement(args.values, args.inputs ?? [], ctx);
      case 'compare':
        return await (await import('./vendor.ts')).runCompare(args.values, args.inputs ?? [], ctx);
      case 'run':
        if (args.values.list) return await listChecks(args.values, out);
        return await run(resolveRunConfig(args.values, io.env, io.cwd), ctx);
      default:
        throw new UsageError(`unknown command (commands: ${Object.keys(commands).join(', ')})`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`conform: ${error.message}\n`);
      return exitCodes.usage;
    }
    if (error instanceof PromptCancelled) {
      err('\n');
      return exitCodes['cancelled at a prompt'];
    }
    if (error instanceof NoVerdictError) {
      err(`conform: no verdict: ${error.message}\n`);
      return exitCodes['no verdict'];
    }
    err(`conform: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodes['no verdict'];
  }
}

async function run(plan: RunPlan, ctx: CommandIo): Promise<number> {
  const { io, out: stdout, err } = ctx;
  const { output, settings } = plan;
  ctx.mask(plan.secrets);
  // `--out -`: stdout carries the JSON report only; every line for people goes to stderr.
  const out = output.reportToStdout ? err : stdout;
  const people = output.reportToStdout ? io.stderr : io.stdout;
  prepareOutDir(output.outDir);
  const journalPath = join(output.outDir, 'journal.jsonl');
  const unsettled = unsettledItems(journalPath);
  if (unsettled.length > 0) {
    throw new UsageError(
      `${journalPath} records ${unsettled.length} kept change(s) an earlier run did not restore; run: conform restore --journal ${journalPath} (with the same target and keys)`,
    );
  }
  rmSync(journalPath, { force: true });

  const style = terminalStyle(io.stdout, io.env);
  const terminal = output.reporters.includes('terminal');
  const progress = terminal && !output.quiet;
  const target = await openTarget(plan.target, {
    timeoutMs: settings.timeoutMs,
    politeness: { connections: settings.concurrency, rps: settings.rps },
    ...(progress ? { onRateLimit: (n) => out(`${style.paint('dim', describeRateLimit(n))}\n`) } : {}),
  });
  // The embedded reference makes its own keys; a remote target's are in the plan already.
  ctx.mask(Object.values(target.keys));
  // Until the run installs its own handler below, a signal ends it with no verdict: nothing has changed yet.
  const whileStarting = (signal: NodeJS.Signals) => {
    err(`conform: ${signal} before any check ran; nothing was changed\n`);
    process.exit(exitCodes['no verdict']);
  };
  process.on('SIGINT', whileStarting);
  process.on('SIGTERM', whileStarting);
  try {
    const { runner, declared } = await startBesidePreflight(
      target,
      checkTimeout(settings.timeoutMs, plan.deadlineSeconds),
      prefetches(plan, target),
      io.prestarted,
    ).finally(() => {
      process.off('SIGINT', whileStarting);
      process.off('SIGTERM', whileStarting);
    });
    const style = terminalStyle(people, io.env);
    const terminal = output.reporters.includes('terminal');
    const progress = terminal && !output.quiet;
    writeJournalHeader(journalPath, { url: target.baseUrl, profile: target.profile, keys: keyFingerprints(target.keys) });
    const restore = restoreCommand(journalPath, plan.target);
    // `--out -` has no report folder for a CI step to keep: the journal sits in a temporary folder the job throws
    // away, so the log must say where it is before anything is changed (a killed run leaves only the log).
    if (output.reportToStdout && restore)
      err(
        `conform: --out -: this run's journal is ${journalPath}, a temporary folder outside any report folder; if the run is killed, put back what it records with: ${restore}\n`,
      );
    if (progress) out(`conform ${version()}: checking ${target.label} (${target.baseUrl}) against the ${target.profile} profile, seed ${settings.seed}\n`);
    if (target.network?.insecure) err("conform: warning: --insecure: the target's TLS certificate is not verified\n");
    const declaredRps = declared ? declared.requests / declared.seconds : undefined;
    if (declared && progress)
      out(
        `the catalog declares a rate limit of ${declared.requests} requests per ${declared.seconds} s (${declared.where}): pacing at ${(START_SHARE * declaredRps!).toPrecision(2)} requests/s\n`,
      );
    // The report writers are needed only once the run ends: they load while it runs, off the start-up path.
    const writers = import('../../reporters/index.ts');
    writers.catch(() => undefined); // awaited after the run; a failed load is reported there, not as an unhandled rejection
    const stopping = new AbortController();
    const onSignal = interruptHandler({ journalPath, stopping, err, restore });
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const { result, harnessErrors } = await execute(runner, target, plan, {
      journalPath,
      ...(declared ? { declaredRateLimit: { requests: declared.requests, seconds: declared.seconds } } : {}),
      interrupted: () => (stopping.signal.aborted ? String(stopping.signal.reason) : undefined),
      stop: stopping.signal,
      reporters: progress ? [new ProgressReporter(out, style, people.isTTY === true && !io.env.CI)] : [],
    }).finally(() => {
      if (!stopping.signal.aborted) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        return runner.close();
      }
      // Interrupted: the kept values are back; the CI's grace period is not spent waiting for vitest to shut
      // its worker down (the process ends once the reports are written, below). A later signal still finds the handler.
      void runner.close().catch(() => undefined);
    });
    for (const message of harnessErrors) err(`conform: harness error: ${message}\n`);
    const { renderAnnotations, renderJson, renderSummary, writeReports } = await writers;
    const fileReporters = output.reportToStdout ? output.reporters.filter((r) => r !== 'json') : output.reporters;
    const written = writeReports(result, { outDir: output.outDir, reporters: fileReporters, env: io.env, redact: ctx.redact });
    if (output.reportToStdout) {
      stdout(renderJson(result));
      // The folder only held the journal; keep it when a kept value could not be put back.
      if (result.safety.problems.length === 0) rmSync(output.outDir, { recursive: true, force: true });
      else err(`conform: the journal of this run is ${journalPath}; run: conform restore --journal ${journalPath}\n`);
    }
    if (output.reporters.includes('github')) out(renderAnnotations(result));
    // Without the terminal reporter a person (or CI log) still gets the failures and the verdict line.
    out(renderSummary(result, style, { quiet: output.quiet || !terminal }));
    if (terminal && written.length > 0 && !output.quiet) out(`reports: ${written.join(', ')}\n`);
    if (stopping.signal.aborted) setImmediate(() => process.exit(result.exitCode));
    return result.exitCode;
  } finally {
    await target.close();
  }
}

/** After a second signal, how long the restore may go on before conform gives up on it (a CI runner kills 2.5 s after its second signal). */
const SECOND_SIGNAL_GRACE_MS = 2_000;

/**
 * The first SIGINT/SIGTERM stops the run: nothing more is sent, what is in flight is aborted, and the
 * kept values are put back at once (src/runner/execute.ts). A later signal does not abandon that
 * restore: it says what is left, and gives the restore a short grace; only a restore that cannot
 * finish in it is given up, naming the items left and the command that puts them back.
 */
function interruptHandler(options: { journalPath: string; stopping: AbortController; err: (text: string) => void; restore: string | undefined }) {
  const { journalPath, stopping, err, restore } = options;
  let giveUp: NodeJS.Timeout | undefined;
  const left = () => {
    try {
      return unsettledItems(journalPath);
    } catch {
      return [];
    }
  };
  const quit = () => {
    const items = left();
    if (items.length > 0) {
      err(`conform: the restore could not finish: ${items.length} kept value(s) still changed (${items.join(', ')})\n`);
      if (restore) err(`conform: put them back with: ${restore}\n`);
    }
    process.exit(exitCodes['no verdict']);
  };
  return (signal: NodeJS.Signals) => {
    if (!stopping.signal.aborted) {
      err(`conform: ${signal}: stopping: no new request, those in flight aborted, kept values being put back now (journal: ${journalPath})\n`);
      stopping.abort(signal);
      return;
    }
    if (giveUp !== undefined) return quit();
    const items = left();
    err(
      items.length === 0
        ? `conform: ${signal}: every kept value changed is back; finishing the reports (${SECOND_SIGNAL_GRACE_MS / 1000} s at most)\n`
        : `conform: ${signal}: still putting back ${items.length} kept value(s) (${items.join(', ')}); giving the restore ${SECOND_SIGNAL_GRACE_MS / 1000} s more${restore ? ` (if this process is killed, run: ${restore})` : ''}\n`,
    );
    giveUp = setTimeout(quit, SECOND_SIGNAL_GRACE_MS);
    giveUp.unref();
  };
}

/** The command that puts back what the journal names, for a remote target (the embedded reference goes away with the run). */
function restoreCommand(journalPath: string, target: RunPlan['target']): string | undefined {
  if (target.kind !== 'remote') return undefined;
  return `conform restore --journal ${journalPath} --target ${target.label} --profile ${target.profile} (with the run's keys)`;
}

/**
 * vitest starts (CPU) while the pre-flight and the catalog read wait on the network, unless it started before
 * the CLI loaded for the very run this is (same time limit); a failed pre-flight closes it.
 */
async function startBesidePreflight(
  target: OpenTarget,
  checkTimeoutMs: number,
  prefetch: boolean,
  prestarted?: Prestarted,
): Promise<{ runner: SuiteRunner; declared: ReturnType<typeof declaredRateLimitOf> }> {
  const starting = prestarted?.claim(checkTimeoutMs) ?? SuiteRunner.create({ checkTimeoutMs });
  starting.catch(() => undefined);
  try {
    const [, catalog] = await Promise.all([preflight(target), readCatalog(target)]);
    const declared = declaredRateLimitOf(catalog);
    // While vitest loads the checks, the run's data-free shared reads go out (the pace starts on them); the checks wait
    // for their answers before they send anything. Not under a rate limit the catalog declares, which paces the checks'
    // client only.
    if (prefetch && !declared) target.prefetching = prefetchSharedReads(target);
    return { runner: await starting, declared };
  } catch (error) {
    await starting.then(
      (runner) => runner.close(),
      () => undefined,
    );
    throw error;
  }
}

/** A run of every check on the primary profile, not budgeted: the one that takes every prefetched read. */
function prefetches(plan: RunPlan, target: OpenTarget): boolean {
  return plan.budget === undefined && plan.only.length === 0 && plan.skip.length === 0 && target.profile === 'primary';
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
  return exitCodes.done;
}

async function restore(values: ParsedArgs['values'], ctx: CommandIo): Promise<number> {
  const { io, out } = ctx;
  if (!values.journal) throw new UsageError('restore needs --journal FILE');
  if (values.target === undefined) throw new UsageError('restore needs --target (the target of the interrupted run) and its keys');
  const plan = resolveRunConfig(values, io.env, io.cwd);
  ctx.mask(plan.secrets);
  const journal = readJournalFile(io.cwd, values.journal);
  if (plan.target.kind === 'remote') journal.assertSameRun({ url: plan.target.baseUrl, profile: plan.target.profile, keys: keyFingerprints(plan.target.keys) });
  const target: OpenTarget = await openTarget(plan.target, { onRateLimit: (n) => out(`${describeRateLimit(n)}\n`) });
  try {
    await preflight(target);
    const report = await settleJournal(journal.path, (user) => target.api(user));
    out(`restore: ${report.changedItems} item(s) in the journal, ${report.restoredAfterRun} put back, ${report.problems.length} problem(s)\n`);
    for (const problem of report.problems) out(`  ${problem}\n`);
    return report.problems.length === 0 ? exitCodes.done : exitCodes['no verdict'];
  } finally {
    await target.close();
  }
}
