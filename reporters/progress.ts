import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { RateLimitNotice } from '../src/http/client.ts';
import { decodeNotice } from '../src/http/notice.ts';
import { checkResultOf } from '../src/runner/results.ts';
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

  /** The checks' client tells when the target's rate limit makes it wait (see src/http/notice.ts). */
  onUserConsoleLog(log: UserConsoleLog): void {
    const notice = decodeNotice(log.content.trim());
    if (!notice) return;
    const line = `${this.style.paint('dim', describeRateLimit(notice))}\n`;
    this.write(this.live ? `\r\x1b[K${line}${this.statusLine()}` : line);
  }

  onTestRunEnd(): void {
    if (this.live) this.write('\r\x1b[K');
  }

  private statusLine(): string {
    return this.style.paint('dim', `${this.done}/${Math.max(this.total, this.done)} checks done`);
  }
}

/** One progress line for a rate-limit pause or the end of one. */
export function describeRateLimit(notice: RateLimitNotice): string {
  if (notice.kind === 'resumed') {
    const pace = notice.rps === undefined ? 'too few answers to measure a pace yet' : `pacing at ${notice.rps.toPrecision(2)} requests/s from now on`;
    return `  ▶ rate limit: the target answers again after ${seconds(notice.afterMs)}; ${pace}`;
  }
  const why = notice.retryAfter ? `Retry-After asks for ${seconds(notice.ms)}` : `no Retry-After; backing off ${seconds(notice.ms)}`;
  return notice.streak > 1 && !notice.retryAfter
    ? `  ⏸ rate limit: still 429 (${notice.request}); backing off ${seconds(notice.ms)}`
    : `  ⏸ rate limit: ${notice.request} answered 429 (${why}); every request waits`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
