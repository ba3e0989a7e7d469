import type { Reporter, TestCase } from 'vitest/node';
import { checkResultOf } from '../src/results.ts';
import { symbols, type Style } from './style.ts';

/** Live lines as checks finish; pure rendering of what vitest reports. */
export class ProgressReporter implements Reporter {
  private done = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const result = checkResultOf(testCase);
    if (!result) return;
    this.done++;
    const note = result.status === 'passed' ? '' : ` — ${(result.message ?? '').split('\n')[0]}`;
    this.write(`${this.style.paint(result.status, symbols[result.status])} ${result.id} ${result.title}${this.style.paint('dim', note)}\n`);
  }
}
