import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { checkResultOf } from '../src/results.ts';
import { symbols, type Style } from './style.ts';

/**
 * Live lines as checks finish; pure rendering of what vitest reports. On a TTY a status line
 * ("12/67 checks done") is kept under the lines and rewritten in place; elsewhere only plain lines.
 */
export class ProgressReporter implements Reporter {
  private done = 0;
  private total = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
    private readonly live = false,
  ) {}

  onTestModuleCollected(module: TestModule): void {
    for (const test of module.children.allTests()) {
      if (test.meta().conform && test.options.mode !== 'skip' && test.options.mode !== 'todo') this.total++;
    }
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = checkResultOf(testCase);
    if (!result) return;
    this.done++;
    const note = result.status === 'passed' ? '' : ` — ${(result.message ?? '').split('\n')[0]}`;
    const line = `${this.style.paint(result.status, symbols[result.status])} ${result.id} ${result.title}${this.style.paint('dim', note)}\n`;
    this.write(this.live ? `\r\x1b[K${line}${this.statusLine()}` : line);
  }

  onTestRunEnd(): void {
    if (this.live) this.write('\r\x1b[K');
  }

  private statusLine(): string {
    return this.style.paint('dim', `${this.done}/${Math.max(this.total, this.done)} checks done`);
  }
}
