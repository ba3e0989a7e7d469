import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../reporters/html.ts';
import { writeReports } from '../reporters/index.ts';
import { checks, redact, SECRET, syntheticRun } from './support/synthetic-run.ts';

const run = syntheticRun();
const html = renderHtml(run);

/** Content (between <body> and </body> when present), tags removed and the five entities decoded: what a reader sees. */
function visibleText(page: string): string {
  const start = page.indexOf('<body>');
  const end = page.indexOf('</body>');
  return page
    .slice(Math.max(0, start), end === -1 ? undefined : end)
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('report.html', () => {
  it('shows the verdict, reason, target, URL, profile, seed and counts in the banner', () => {
    const banner = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(banner).toContain('class="banner v-fails"');
    expect(banner).toContain('does not conform');
    expect(banner).toContain(run.reason);
    expect(banner).toContain('reference &amp; &lt;friends&gt;');
    expect(banner).toContain(run.target.url);
    expect(banner).toContain('primary');
    expect(banner).toContain('424242');
    expect(visibleText(banner)).toMatch(/2 passed.*2 failed.*1 error.*1 skipped.*1 not applicable/s);
  });

  it('colour-codes each verdict', () => {
    const conforms = renderHtml(syntheticRun([checks.passed]));
    const none = renderHtml(syntheticRun([checks.passed, checks.error]));
    expect(conforms).toContain('class="banner v-conforms"');
    expect(none).toContain('class="banner v-none"');
    expect(visibleText(none)).toContain('no verdict');
  });

  it('counts a check toward every section it names', () => {
    const matrix = html.slice(html.indexOf('<table class="matrix">'), html.indexOf('</table>', html.indexOf('<table class="matrix">')));
    const row = (section: string) =>
      [...(matrix.match(new RegExp(`<th scope="row">${section}</th>(.*?)</tr>`))?.[1] ?? '').matchAll(/>(\d+)</g)].map((m) => Number(m[1]));
    // columns: passed, failed, error, skipped, not applicable, total
    expect(row('§1')).toEqual([0, 1, 0, 0, 0, 1]);
    expect(row('§2')).toEqual([0, 0, 0, 1, 1, 2]);
    expect(row('§3')).toEqual([0, 1, 0, 0, 0, 1]);
    expect(row('§4')).toEqual([1, 1, 1, 0, 1, 4]);
    expect(row('§5')).toEqual([1, 1, 0, 0, 0, 2]);
    expect(row('§8')).toEqual([1, 0, 1, 0, 0, 2]);
    expect(matrix.indexOf('§2<')).toBeLessThan(matrix.indexOf('§3<'));
  });

  it('details each failure and error: message, request, response and reproduction', () => {
    const text = visibleText(html);
    const failure = checks.failed;
    expect(text).toContain(failure.message);
    expect(text).toContain(failure.exchange.request);
    expect(text).toContain(`HTTP ${failure.exchange.status}\n${failure.exchange.responseBody}`);
    expect(text).toContain(failure.reproduction);
    expect(html).toMatch(/<pre class="repro">curl -sS -i -X POST/);
    expect(text).toContain(checks.error.message);
    expect(html).toContain('href="#check-KEPT-001"');
    expect(html).toContain('id="check-KEPT-001"');
  });

  it('groups checks by area and lists skipped and not-applicable checks with their reasons', () => {
    for (const area of ['auth', 'forbidden-writes', 'kept-toggle', 'paging', 'players', 'staging']) expect(html).toContain(`<h3>${area} <span class="tally">`);
    const notRun = visibleText(html.slice(html.indexOf('<section id="not-run">')));
    expect(notRun).toContain(`${checks.skipped.id}${checks.skipped.sections.join(', ')}${checks.skipped.title}${checks.skipped.message}`);
    expect(notRun).toContain(checks.notApplicable.message);
  });

  it('escapes everything from the model', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    expect(html).toContain('&lt;b&gt;kept&lt;/b&gt; &amp; done');
    expect(html).not.toContain('<friends>');
    const hostile = renderHtml(
      syntheticRun([{ ...checks.failed, id: 'X-001" onmouseover="alert(1)', area: '<img src=x onerror=alert(1)>', sections: ['§4</th><script>'] }]),
    );
    expect(hostile).not.toMatch(/<script|<img|" onmouseover/);
  });

  it('is self-contained: no scripts, no external resources', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|src=/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
  });

  it('shows safety problems prominently', () => {
    const page = renderHtml(
      syntheticRun(undefined, { safety: { changedItems: 2, restoredAfterRun: 1, problems: ['item 17: is_kept is 1, expected 0 <restore>'] } }),
    );
    expect(page).toContain('<section id="safety" class="alarm">');
    expect(page).toContain('item 17: is_kept is 1, expected 0 &lt;restore&gt;');
  });

  it('is written through redact', () => {
    expect(html).toContain(SECRET);
    const outDir = mkdtempSync(join(tmpdir(), 'conform-html-'));
    const [path] = writeReports(run, { outDir, reporters: ['html'], env: {}, redact });
    expect(path).toBe(join(outDir, 'report.html'));
    const written = readFileSync(path!, 'utf8');
    expect(written).not.toContain(SECRET);
    expect(written).toContain('Bearer ***');
  });
});

describe('report.html: what gates and what does not', () => {
  const sectionText = (page: string, id: string) => {
    const start = page.indexOf(`<section id="${id}"`);
    return start === -1 ? '' : visibleText(page.slice(start, page.indexOf('</section>', start)));
  };

  it('puts a SHOULD failure under advice, not under the failures that gate', () => {
    expect(sectionText(html, 'failures')).not.toContain(checks.shouldFailed.id);
    const advice = sectionText(html, 'advice');
    expect(advice).toContain('Advice: SHOULD checks that failed (1)');
    expect(advice).toContain(`${checks.shouldFailed.id} SHOULD`);
    expect(advice).toContain('advice: a SHOULD check, not gating');
    expect(html).toContain('<article class="failure f-advice" id="check-ENUM-002">');
  });

  it('lists the checks that could not be judged and why, and colour-codes an incomplete verdict', () => {
    expect(sectionText(html, 'not-judged')).toContain(
      `${checks.skipped.id}MUST${checks.skipped.sections.join(', ')}${checks.skipped.title}${checks.skipped.message}`,
    );
    const incomplete = renderHtml(syntheticRun([checks.passed, checks.skipped]));
    expect(incomplete).toContain('class="banner v-incomplete"');
    expect(sectionText(incomplete, 'not-judged')).toMatch(/cannot conform without them/);
  });

  it('shows waived checks, expired waivers and unexpected passes, and a partial selection in the banner', () => {
    const page = renderHtml(
      syntheticRun(
        [checks.passed, checks.passed2, checks.failed, checks.shouldFailed],
        {},
        {
          circumstances: {
            waivers: [
              { check: checks.failed.id, reason: 'vendor <ticket> 42', expires: '2999-01-01' },
              { check: checks.shouldFailed.id, reason: 'old', expires: '2001-01-01' },
              { check: checks.passed.id, reason: 'flaky once', expires: '2999-01-01' },
            ],
            selection: { only: ['AUTH-*'], skip: [], selected: 4, total: 67, deselected: [] },
          },
        },
      ),
    );
    const waivers = sectionText(page, 'waivers');
    expect(waivers).toContain('KEPT-001failed, waived2999-01-01vendor <ticket> 42');
    expect(waivers).toContain('ENUM-002expired2001-01-01oldexpired on 2001-01-01: no longer applies');
    expect(waivers).toContain('AUTH-001unexpected pass2999-01-01flaky oncethe check passed: remove the waiver');
    expect(page).toContain('<span class="tag tag-waived"');
    expect(page).toContain('<span class="tag tag-unexpected-pass"');
    expect(page).toContain('<span class="tag tag-waiver-expired"');
    expect(page).toContain('<dt>Selection</dt><dd>partial run: --only AUTH-* (4 of 67 checks)</dd>');
    expect(page).not.toContain('vendor <ticket>');
  });
});

const chromium = '/usr/bin/chromium';
const hasChromium = existsSync(chromium);
if (!hasChromium) console.warn(`reporters-html: ${chromium} not found; skipping the headless browser rendering test (CI installs chromium)`);

describe('report.html in a real browser', () => {
  it.skipIf(!hasChromium)('renders the verdict and failure details in headless Chromium, and screenshots at 1280px', { timeout: 120_000 }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'conform-chromium-'));
    const [page] = writeReports(run, { outDir, reporters: ['html'], env: {}, redact });
    const chrome = async (...args: string[]) => {
      const profile = mkdtempSync(join(tmpdir(), 'conform-chromium-profile-'));
      try {
        const { stdout } = await promisify(execFile)(
          chromium,
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage',
            '--hide-scrollbars',
            `--user-data-dir=${profile}`,
            ...args,
            pathToFileURL(page!).href,
          ],
          { timeout: 90_000, maxBuffer: 32 * 1024 * 1024 },
        );
        return stdout;
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    };

    const dom = await chrome('--dump-dom');
    expect(dom).toContain('does not conform');
    expect(dom).toContain('KEPT-001');
    expect(dom).toContain('is_kept of item 17 is 1 after sending 0');
    expect(dom).toContain('POST http://127.0.0.1:4010/artifact-kept.php');
    expect(dom).toContain('Authorization: Bearer ***');
    expect(dom).not.toContain(SECRET);
    expect(dom).not.toContain('<script>alert');

    const png = join(outDir, 'report.png');
    await chrome(`--screenshot=${png}`, '--window-size=1280,2000');
    expect(existsSync(png)).toBe(true);
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(1280);
    expect(statSync(png).size).toBeGreaterThan(20_000);
    if (process.env.CONFORM_KEEP_SCREENSHOT) console.log(`screenshot: ${png}`);
    else rmSync(outDir, { recursive: true, force: true });
  });
});
