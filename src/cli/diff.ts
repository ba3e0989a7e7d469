import { UsageError } from '../errors.ts';
import type { ParsedArgs } from './args.ts';
import type { CommandIo } from './main.ts';

export async function runDiff(_values: ParsedArgs['values'], _ctx: CommandIo): Promise<number> {
  throw new UsageError('diff is not available yet');
}
