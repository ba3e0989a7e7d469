import { describeSelection, type CheckResult, type RunResult, type Status } from '../src/runner/results.ts';
import type { Verdict } from '../src/runner/results.ts';
import {
  adviceKinds,
  adviceOf,
  byArea,
  countOf,
  effectLabels,
  effectNote,
  failuresOf,
  notJudgedOf,
  notRunOf,
  sectionMatrix,
  statusLabels,
  statusOrder,
  waivedOf,
} from './shared.ts';
import { symbols } from './style.ts';

/**
 * report.html: one self-contained page (inline CSS, no scripts, no external resources) that a person
 * reads after a run. Every string from the model is escaped; nothing here decides a verdict.
 */
export function renderHtml(run: RunResult): string {
  const failures = failuresOf(run);
  const notRun = notRunOf(run);
  const advice = adviceOf(run);
  const notJudged = notJudgedOf(run);
  const body = [
    banner(run),
    '<main>',
    safety(run),
    matrix(run),
    failures.length > 0
      ? section('failures', `Failures and errors (${failures.length})`, failures.map(failureDetail).join('\n'))
      : section('failures', 'Failures and errors (0)', '<p class="none">No check failed and none errored.</p>'),
    notJudged.length > 0 ? section('not-judged', `Not judged (${notJudged.length})`, notJudgedList(notJudged)) : '',
    advice.length > 0
      ? section(
          'advice',
          `Advice: ${adviceKinds(advice)} that failed (${advice.length})`,
          `<p class="note">Not gating: the run fails on them only with <code>--fail-on should</code>.</p>\n${advice.map(failureDetail).join('\n')}`,
        )
      : '',
    waiversSection(run),
    section('areas', `Checks by area (${run.checks.length})`, areas(run)),
    notRun.length > 0 ? section('not-run', `Skipped and not applicable (${notRun.length})`, notRunList(notRun)) : '',
    '</main>',
    `<footer>${esc(run.tool.name)} ${esc(run.tool.version)} · report schema version ${esc(String(run.schemaVersion))} · exit code ${esc(String(run.exitCode))}</footer>`,
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`conform: ${run.target.label} — ${run.verdict}`)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    ...body.filter((part) => part !== ''),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Escapes text for element content and quoted attribute values alike. */
export function esc(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
  );
}

const verdictClass: Record<Verdict, string> = {
  conforms: 'v-conforms',
  'does not conform': 'v-fails',
  incomplete: 'v-incomplete',
  'no verdict': 'v-none',
};

const verdictMark: Record<Verdict, string> = {
  conforms: '✓',
  'does not conform': '✗',
  incomplete: '…',
  'no verdict': '?',
};

const statusClass = (status: Status): string => `s-${status}`;

/** An id usable as a fragment, built from the check id (already escaped when used). */
const anchor = (check: CheckResult): string => `check-${check.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

function banner(run: RunResult): string {
  const c = run.counts;
  const total = run.checks.length;
  const counts = statusOrder.map((s) => `<li class="count ${statusClass(s)}"><span class="n">${c[s]}</span> ${esc(statusLabels[s])}</li>`).join('');
  return `<header class="banner ${verdictClass[run.verdict]}">
<div class="wrap">
<p class="verdict"><span class="mark" aria-hidden="true">${verdictMark[run.verdict]}</span> <span class="verdict-text">${esc(run.verdict)}</span></p>
<p class="verdict-reason">${esc(run.reason)}</p>
<dl class="meta">
<div><dt>Target</dt><dd>${esc(run.target.label)}</dd></div>
<div><dt>URL</dt><dd><code>${esc(run.target.url)}</code></dd></div>
<div><dt>Profile</dt><dd>${esc(run.target.profile)}</dd></div>
<div><dt>Seed</dt><dd><code>${esc(String(run.seed))}</code></dd></div>
<div><dt>Checks</dt><dd>${total}</dd></div>
<div><dt>Gate</dt><dd>${run.policy.failOn === 'should' ? 'MUST and SHOULD' : 'MUST (SHOULD is advice)'}${run.policy.allowIncomplete ? ', incomplete allowed' : ''}</dd></div>
${run.selection ? `<div class="partial"><dt>Selection</dt><dd>${esc(describeSelection(run.selection))}</dd></div>\n` : ''}</dl>
<ul class="counts">${counts}</ul>
</div>
</header>`;
}

function section(id: string, title: string, content: string): string {
  return `<section id="${esc(id)}">\n<h2>${esc(title)}</h2>\n${content}\n</section>`;
}

function safety(run: RunResult): string {
  const { changedItems, restoredAfterRun, problems } = run.safety;
  const summary = `<p>${esc(safetySentence(changedItems, restoredAfterRun, problems.length))}</p>`;
  if (problems.length === 0) return section('safety', 'Changes to the target', summary);
  const list = problems.map((p) => `<li><pre>${esc(p)}</pre></li>`).join('\n');
  return `<section id="safety" class="alarm">\n<h2>Changes to the target: ${problems.length} problem(s)</h2>\n${summary}\n<ul class="problems">${list}</ul>\n</section>`;
}

/** What the run changed and what became of it, in words that cannot be read as "still changed" when it was put back. */
export function safetySentence(changed: number, sweptBack: number, problems: number): string {
  if (changed === 0) return 'The run changed no kept flag on the target.';
  const items = `${changed} item${changed === 1 ? '' : 's'}`;
  const sweep =
    sweptBack === 0 ? 'each check put back what it changed' : `the checks put back ${changed - sweptBack} themselves and the end-of-run sweep ${sweptBack}`;
  if (problems === 0) return `The run changed the kept flag of ${items} and put every one back (${sweep}).`;
  return `The run changed the kept flag of ${items}; ${problems} problem(s) below: those items may still be changed (run conform restore with the journal).`;
}

function matrix(run: RunResult): string {
  const rows = sectionMatrix(run.checks);
  if (rows.length === 0) return section('matrix', 'Spec sections', '<p class="none">No checks ran.</p>');
  const head = `<tr><th scope="col">Section</th>${statusOrder.map((s) => `<th scope="col" class="num">${esc(statusLabels[s])}</th>`).join('')}<th scope="col" class="num">total</th></tr>`;
  const body = rows
    .map(([name, counts]) => {
      const total = statusOrder.reduce((sum, s) => sum + counts[s], 0);
      const bad = counts.failed > 0 ? ' class="row-failed"' : counts.error > 0 ? ' class="row-error"' : '';
      const cells = statusOrder.map((s) => `<td class="num${counts[s] > 0 ? ` ${statusClass(s)} hit` : ' zero'}">${counts[s]}</td>`).join('');
      return `<tr${bad}><th scope="row">${esc(name)}</th>${cells}<td class="num">${total}</td></tr>`;
    })
    .join('\n');
  const note =
    '<p class="note">A check that enforces several sections (for example “§3, §4”) counts toward each of them, so the rows add up to more than the number of checks.</p>';
  return section('matrix', 'Spec sections', `<table class="matrix">\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>\n${note}`);
}

/** Small tags for what the outcome means for the gate: advice, waived, unexpected pass, waiver expired. */
function effectTag(check: CheckResult): string {
  const note = esc(effectNote(check) ?? '');
  return effectLabels(check)
    .map((label) => ` <span class="tag tag-${esc(label.replace(/ /g, '-'))}" title="${note}">${esc(label)}</span>`)
    .join('');
}

function checkHeading(check: CheckResult): string {
  return `<span class="badge ${statusClass(check.status)}">${symbols[check.status]} ${esc(statusLabels[check.status])}</span>${effectTag(check)} <span class="id">${esc(check.id)}</span> <span class="level level-${esc(check.level)}">${esc(check.level)}</span> ${esc(check.title)}`;
}

function failureDetail(check: CheckResult): string {
  const parts = [
    `<article class="failure f-${check.effect === 'advice' ? 'advice' : check.status}" id="${esc(anchor(check))}">`,
    `<h3>${checkHeading(check)}</h3>`,
    `<p class="where">Section ${esc(check.sections.join(', '))} · area ${esc(check.area)} · ${esc(String(check.durationMs))} ms</p>`,
    ...(effectNote(check) ? [`<p class="effect">${esc(effectNote(check)!)}</p>`] : []),
    ...(check.clause ? [`<p class="clause">Clause ${esc(check.clause.id)} (${esc(check.clause.section)}): ${esc(check.clause.text)}</p>`] : []),
    '<h4>Message</h4>',
    `<pre class="message">${esc(check.message ?? '(no message)')}</pre>`,
  ];
  if (check.exchange) {
    parts.push(
      '<div class="exchange">',
      `<div><h4>Request sent</h4><pre class="request">${esc(check.exchange.request)}</pre></div>`,
      `<div><h4>Response received</h4><pre class="response"><span class="status">HTTP ${esc(String(check.exchange.status))}</span>\n${esc(check.exchange.responseBody)}</pre></div>`,
      '</div>',
    );
  }
  if (check.reproduction) parts.push('<h4>Reproduce</h4>', `<pre class="repro">${esc(check.reproduction)}</pre>`);
  parts.push('</article>');
  return parts.join('\n');
}

function areas(run: RunResult): string {
  const groups = byArea(run.checks);
  if (groups.length === 0) return '<p class="none">No checks ran.</p>';
  return groups
    .map(([area, checks]) => {
      const tally = statusOrder
        .filter((s) => countOf(checks, s) > 0)
        .map((s) => `<span class="${statusClass(s)}">${countOf(checks, s)} ${esc(statusLabels[s])}</span>`)
        .join(', ');
      const rows = checks.map((check) => {
        const detailed = (check.status === 'failed' || check.status === 'error') && (check.effect === 'blocks' || check.effect === 'advice');
        const id = detailed ? `<a href="#${esc(anchor(check))}">${esc(check.id)}</a>` : esc(check.id);
        const note = [check.status === 'passed' ? '' : esc(firstLine(check.message)), esc(effectNote(check) ?? '')].filter(Boolean).join('<br>');
        const row = check.effect === 'advice' ? 'advice' : check.effect === 'waived' ? 'waived' : check.status;
        return `<tr class="row-${row}"><td class="st"><span class="badge ${statusClass(check.status)}">${symbols[check.status]} ${esc(statusLabels[check.status])}</span>${effectTag(check)}</td><td class="id">${id}</td><td>${esc(check.level)}</td><td class="sec">${esc(check.sections.join(', '))}</td><td>${esc(check.title)}${note ? `<div class="note">${note}</div>` : ''}</td><td class="num">${esc(String(check.durationMs))} ms</td></tr>`;
      });
      return `<div class="area">\n<h3>${esc(area)} <span class="tally">${tally}</span></h3>\n<table class="checks">\n<thead><tr><th scope="col" class="w-st">Status</th><th scope="col" class="w-id">Id</th><th scope="col" class="w-lv">Level</th><th scope="col" class="w-sec">Section</th><th scope="col">Check</th><th scope="col" class="num w-t">Time</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n</div>`;
    })
    .join('\n');
}

function notJudgedList(checks: readonly CheckResult[]): string {
  const gating = checks.some((c) => c.effect === 'blocks');
  const intro = gating
    ? '<p>These checks could not be judged because their precondition is absent on this target, so the run <strong>cannot conform</strong> without them: provide the data (a second key, items, tags …), waive them, or pass <code>--allow-incomplete</code>.</p>'
    : '<p>These checks could not be judged because their precondition is absent on this target; <code>--allow-incomplete</code> let the run pass without them.</p>';
  const rows = checks.map(
    (check) =>
      `<tr class="row-skipped"><td class="id">${esc(check.id)}</td><td>${esc(check.level)}</td><td class="sec">${esc(check.sections.join(', '))}</td><td>${esc(check.title)}</td><td class="reason">${esc(check.message ?? '')}</td></tr>`,
  );
  return `${intro}\n<table class="checks">\n<thead><tr><th scope="col" class="w-id">Id</th><th scope="col" class="w-lv">Level</th><th scope="col" class="w-sec">Section</th><th scope="col">Check</th><th scope="col">Reason</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

function waiversSection(run: RunResult): string {
  const waived = waivedOf(run);
  const others = run.waivers.filter((w) => w.state !== 'applied');
  if (waived.length === 0 && others.length === 0) return '';
  const rows = [
    ...waived.map(
      (check) =>
        `<tr class="row-waived"><td class="id">${esc(check.id)}</td><td>${esc(statusLabels[check.status])}, waived</td><td>${esc(check.waiver!.expires)}</td><td>${esc(check.waiver!.reason)}</td><td class="reason">${esc(firstLine(check.message))}</td></tr>`,
    ),
    ...others.map(
      (w) =>
        `<tr class="row-waiver-${esc(w.state)}"><td class="id">${esc(w.check)}</td><td>${esc(w.state.replace(/-/g, ' '))}</td><td>${esc(w.expires)}</td><td>${esc(w.reason)}</td><td class="reason">${esc(w.note ?? '')}</td></tr>`,
    ),
  ];
  return section(
    'waivers',
    `Waivers (${run.waivers.length})`,
    `<table class="checks">\n<thead><tr><th scope="col" class="w-id">Check</th><th scope="col" class="w-st">Outcome</th><th scope="col" class="w-sec">Expires</th><th scope="col">Reason</th><th scope="col">Note</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
  );
}

function notRunList(checks: readonly CheckResult[]): string {
  const rows = checks.map(
    (check) =>
      `<tr class="row-${check.status}"><td class="st"><span class="badge ${statusClass(check.status)}">${symbols[check.status]} ${esc(statusLabels[check.status])}</span></td><td class="id">${esc(check.id)}</td><td class="sec">${esc(check.sections.join(', '))}</td><td>${esc(check.title)}</td><td class="reason">${esc(check.message ?? '')}</td></tr>`,
  );
  return `<table class="checks">\n<thead><tr><th scope="col" class="w-st">Status</th><th scope="col" class="w-id">Id</th><th scope="col" class="w-sec">Section</th><th scope="col">Check</th><th scope="col">Reason</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

const css = `
*{box-sizing:border-box}
html{font-size:15px}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",Arial,sans-serif;color:#1f2328;background:#f6f8fa;line-height:1.45}
.wrap,main,footer{max-width:1200px;margin:0 auto;padding:0 24px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:13px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0 0 12px;padding:10px 12px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px}
.banner{color:#fff;padding:20px 0 16px;border-bottom:4px solid rgba(0,0,0,.25)}
.banner.v-conforms{background:#1a7f37}
.banner.v-fails{background:#cf222e}
.banner.v-none{background:#8a5a00}
.banner.v-incomplete{background:#6e5a00}
.tag{display:inline-block;margin-left:4px;font-size:11px;font-weight:600;padding:0 6px;border-radius:4px;background:#eaeef2;color:#1f2328}
.tag-advice{background:#fff8c5;color:#7d4e00}.tag-waived{background:#ddf4ff;color:#0550ae}.tag-unexpected-pass,.tag-waiver-expired{background:#ffebe9;color:#a40e26}
.checks tr.row-advice td{background:#fffbeb}.checks tr.row-waived td{background:#f4f9ff}
.failure.f-advice{border-left-color:#bf8700}
.failure.f-advice pre.message{background:#fffbeb;border-color:#f0d58c}
.effect{margin:0 0 6px;font-weight:600;color:#7d4e00}
.verdict{font-size:34px;font-weight:700;margin:0;letter-spacing:.01em}
.verdict .mark{display:inline-block;min-width:1.1em}
.verdict-reason{font-size:17px;margin:4px 0 12px}
.meta{display:flex;flex-wrap:wrap;gap:6px 28px;margin:0 0 12px}
.meta div{display:flex;gap:6px}
.meta dt{font-weight:600;opacity:.85}
.meta dt::after{content:":"}
.meta dd{margin:0}
.banner code{font-size:14px;color:#fff}
.counts{list-style:none;display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0}
.count{background:#fff;color:#1f2328;border-radius:999px;padding:3px 12px;font-size:14px}
.count .n{font-weight:700}
.count.s-passed .n{color:#1a7f37}.count.s-failed .n{color:#cf222e}.count.s-error .n{color:#8250df}.count.s-skipped .n{color:#9a6700}.count.s-not-applicable .n{color:#57606a}
main{padding-top:8px;padding-bottom:24px}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:4px 20px 12px;margin:16px 0}
section.alarm{border:2px solid #cf222e}
h2{font-size:20px;margin:14px 0 10px}
h3{font-size:16px;margin:14px 0 8px}
h4{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#57606a;margin:10px 0 4px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid #eaeef2}
thead th{background:#f6f8fa;border-bottom:1px solid #d0d7de;font-weight:600}
.num{text-align:right;white-space:nowrap}
.matrix{width:auto;min-width:640px}
.matrix td.zero{color:#afb8c1}
.matrix td.hit{font-weight:700}
.matrix tr.row-failed th{color:#cf222e}
.matrix tr.row-error th{color:#8250df}
.s-passed{color:#1a7f37}.s-failed{color:#cf222e}.s-error{color:#8250df}.s-skipped{color:#9a6700}.s-not-applicable{color:#57606a}
.checks tr.row-failed td{background:#fff5f5}.checks tr.row-error td{background:#fbf7ff}
.failure h3 .id{color:#1f2328}
.badge{display:inline-block;white-space:nowrap;font-size:12px;font-weight:600;padding:1px 8px;border-radius:999px;border:1px solid currentColor;background:#fff}
.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;white-space:nowrap;font-weight:600}
.sec{white-space:nowrap}
table.checks{table-layout:fixed}
.w-st{width:150px}.w-id{width:130px}.w-lv{width:80px}.w-sec{width:110px}.w-t{width:90px}
td.st{white-space:nowrap}
.checks td{overflow-wrap:anywhere}
.level{font-size:12px;font-weight:700;padding:1px 6px;border-radius:4px;background:#eaeef2;color:#1f2328}
.level-MUST{background:#ffebe9;color:#a40e26}
.level-SHOULD{background:#fff8c5;color:#7d4e00}
.level-ROBUSTNESS{background:#ddf4ff;color:#0a3069}
.note{color:#57606a;font-size:13px;margin-top:2px}
.tally{font-weight:400;font-size:14px;margin-left:8px}
.failure{border-left:4px solid #cf222e;padding:2px 0 2px 14px;margin:14px 0 22px}
.failure.f-error{border-left-color:#8250df}
.failure h3{margin-top:6px}
.failure .where{margin:0 0 6px;color:#57606a;font-size:14px}
.failure pre.message{background:#fff5f5;border-color:#ffcecb;font-size:14px}
.failure.f-error pre.message{background:#fbf7ff;border-color:#d8b9ff}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:0 16px}
.exchange>div{min-width:0}
.response .status{font-weight:700}
pre.repro{background:#0d1117;color:#e6edf3;border-color:#0d1117}
.problems{padding-left:18px}
.none{color:#57606a}
footer{color:#57606a;font-size:13px;padding-bottom:24px}
@media (max-width:900px){.exchange{grid-template-columns:1fr}}
@media print{body{background:#fff}.banner{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;
