import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { resolveRunConfig } from '../config/resolve.ts';
import { UsageError } from '../core/errors.ts';
import { PACT_FILE } from '../pact/contract.ts';
import { pactForProfile, type ProfilePact } from '../pact/subset.ts';
import { describeVerification, verifyPact } from '../pact/verify.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './io.ts';
import { openTarget, preflight } from '../runner/open-target.ts';

/**
 * `conform pact verify [--target <name|url>] [--profile staging] [--provider-states <module>]`: verifies
 * the agent's pact (pacts/agent-agent-api.json) against a target, the embedded reference by default;
 * a staging target is held to the interactions staging offers.
 * Exit 0 honoured, 1 broken, 2 usage, 3 no verdict (unreachable target, states that could not be set up).
 */
export async function runPact(subcommand: string, values: ParsedArgs['values'], ctx: CommandIo): Promise<number> {
  if (subcommand !== 'verify') throw new UsageError(`unknown pact command '${subcommand}' (pact verify)`);
  const plan = resolveRunConfig(values, ctx.io.env, ctx.io.cwd);
  ctx.mask(plan.secrets);
  const statesModule = values['provider-states'] === undefined ? undefined : resolve(ctx.io.cwd, values['provider-states']);
  if (statesModule !== undefined && !existsSync(statesModule)) throw new UsageError(`--provider-states: no such file ${statesModule}`);
  if (!existsSync(PACT_FILE)) throw new UsageError(`the pact ${PACT_FILE} is missing; run npm run pact:generate`);

  const target = await openTarget(plan.target, { timeoutMs: plan.settings.timeoutMs });
  let pact: ProfilePact | undefined;
  // The embedded reference makes its own keys; a remote target's are in the plan already.
  ctx.mask(Object.values(target.keys));
  try {
    await preflight(target);
    ctx.out(`conform pact verify: ${PACT_FILE} against ${target.label} (${target.baseUrl}), ${target.profile} profile\n`);
    pact = pactForProfile(PACT_FILE, target.profile);
    if (pact.leftOut.length > 0) {
      ctx.out(`the ${target.profile} subset (§9): ${pact.verified} interaction(s); left out, as the profile does not offer them:\n`);
      for (const l of pact.leftOut) ctx.out(`n/a  ${l.description} (needs ${l.missing.join(', ')})\n`);
    }
    const verification = await verifyPact({
      baseUrl: target.baseUrl,
      key: target.keys.primary,
      pactFile: pact.file,
      timeoutMs: plan.settings.timeoutMs,
      ...(statesModule ? { providerStates: statesModule } : {}),
    });
    ctx.out(describeVerification(verification));
    return verification.exitCode;
  } finally {
    if (pact && pact.file !== PACT_FILE) rmSync(dirname(pact.file), { recursive: true, force: true });
    await target.close();
  }
}
