import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { networkSecrets, resolveRunConfig } from '../config.ts';
import { UsageError } from '../errors.ts';
import { PACT_FILE } from '../pact/contract.ts';
import { describeVerification, verifyPact } from '../pact/verify.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './main.ts';
import { openTarget, preflight } from './targets.ts';

/**
 * `conform pact verify [--target <name|url>] [--provider-states <module>]`: verifies the agent's pact
 * (pacts/agent-agent-api.json) against a target, the embedded reference by default.
 * Exit 0 honoured, 1 broken, 2 usage, 3 no verdict (unreachable target, states that could not be set up).
 */
export async function runPact(subcommand: string, values: ParsedArgs['values'], ctx: CommandIo): Promise<number> {
  if (subcommand !== 'verify') throw new UsageError(`unknown pact command '${subcommand}' (pact verify)`);
  const config = resolveRunConfig(values, ctx.io.env, ctx.io.cwd);
  const statesModule = values['provider-states'] === undefined ? undefined : resolve(ctx.io.cwd, values['provider-states']);
  if (statesModule !== undefined && !existsSync(statesModule)) throw new UsageError(`--provider-states: no such file ${statesModule}`);
  if (!existsSync(PACT_FILE)) throw new UsageError(`the pact ${PACT_FILE} is missing; run npm run pact:generate`);

  ctx.secrets.push(...networkSecrets(config.target));
  const target = await openTarget(config.target, { timeoutMs: config.timeoutMs });
  ctx.secrets.push(target.keys.primary, ...(target.keys.other ? [target.keys.other] : []));
  try {
    await preflight(target);
    ctx.out(`conform pact verify: ${PACT_FILE} against ${target.label} (${target.baseUrl})\n`);
    if (target.profile === 'staging') ctx.err('conform: note: the pact describes the primary deployment; staging offers a subset (§9), so some interactions may fail\n');
    const verification = await verifyPact({
      baseUrl: target.baseUrl,
      key: target.keys.primary,
      timeoutMs: config.timeoutMs,
      ...(statesModule ? { providerStates: statesModule } : {}),
    });
    ctx.out(describeVerification(verification));
    return verification.exitCode;
  } finally {
    await target.close();
  }
}
