import { UsageError } from '../errors.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './main.ts';

export async function runPact(_subcommand: string, _values: ParsedArgs['values'], _ctx: CommandIo): Promise<number> {
  throw new UsageError('pact verify is not available yet');
}
