/** The implementations matrix as Markdown, as one self-contained HTML page, and as JSON for tools. */
import type { Cell, Column, Comparison, Row } from './compare.ts';

export const COMPARE_FILES = { html: 'compare.html', md: 'compare.md', json: 'compare.json' } as const;

const failureCount = (c: Column) => `${c.failures.must} MUST, ${c.failures.should} SHOULD failed or errored`;

/** compare.json: the model as it is, keys in a fixed order. */
export function compareJson(comparison: Comparison): string {
  return `${JSON.stringify({ compareVersion: 1, ...comparison }, null, 2)}\n`;
}

const md = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** compare.md: one table; failure cells link to their detail on compare.html. */
export function renderCompareMarkdown(comparison: Comparison, htmlFile: string = COMPARE_FILES.html): string {
  const { columns } = comparison;
  const lines = ['# Implementations', ''];
  for (const warning of comparison.warnings) lines.push(`> **Warning:** ${md(warning)}`, '');
  for (const c of columns)
    lines.push(`- **${md(c.label)}**: ${md(c.baseUrl)}, profile ${md(c.profile)}, ${md(c.suite)}: ${md(c.verdict)} (${failureCount(c)})`);
  lines.push('', `| section | check | level | ${columns.map((c) => md(c.label)).join(' | ')} |`, `|---|---|---|${columns.map(() => '---|').join('')}`);
  for (const group of comparison.groups) {
    for (const row of group.rows) {
      const id = row.disagree ? `**${row.id}** (differs)` : row.id;
      const cells = row.cells.map((cell) => (cell.anchor ? `**[${cell.status}](${htmlFile}#${cell.anchor})**` : cell.status));
      lines.push(`| ${group.section} | ${id} | ${row.level} | ${cells.join(' | ')} |`);
    }
  }
  const differing = comparison.groups.reduce((n, g) => n + g.rows.filter((r) => r.disagree).length, 0);
  lines.push(
    '',
    `${comparison.groups.reduce((n, g) => n + g.rows.length, 0)} checks, ${columns.length} implementations; ${differing} check(s) where they differ.`,
    '',
  );
  return lines.join('\n');
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** MUST failures weigh before SHOULD ones when the page orders its columns. */
const weight = (c: Column) => c.failures.must * 100_000 + c.failures.should;

/** compare.html: inline CSS and one small inline script (column ordering); nothing fetched. */
export function renderCompareHtml(comparison: Comparison): string {
  const { columns } = comparison;
  const head = columns
    .map(
      (c, i) =>
        `<th scope="col" data-col="${i}" data-failures="${weight(c)}"><span class="impl">${esc(c.label)}</span><span class="sub">${esc(c.profile)} · ${esc(c.suite)}</span><span class="sub v">${esc(c.verdict)}</span><span class="sub">${c.failures.must} MUST / ${c.failures.should} SHOULD failed</span></th>`,
    )
    .join('');
  const body = comparison.groups
    .map(
      (group) =>
        `<tbody><tr class="group"><th colspan="${columns.length + 2}" scope="rowgroup">${esc(group.section)}</th></tr>\n${group.rows.map((row) => rowHtml(row)).join('\n')}</tbody>`,
    )
    .join('\n');
  const warnings = comparison.warnings.map((w) => `<div class="warning" role="alert"><strong>Warning:</strong> ${esc(w)}</div>`).join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Agent API implementations: ${esc(columns.map((c) => c.label).join(', '))}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<header><h1>Agent API implementations</h1>',
    `<p>${comparison.groups.reduce((n, g) => n + g.rows.length, 0)} checks × ${columns.length} implementations. Rows where the implementations differ are highlighted; a failed cell links to its detail.</p></header>`,
    '<main>',
    warnings,
    '<p class="order">Order the columns: <button type="button" data-sort="given">as given</button> <button type="button" data-sort="fewest">fewest failures first</button> <button type="button" data-sort="most">most failures first</button></p>',
    `<table id="matrix"><thead><tr><th scope="col">check</th><th scope="col">level</th>${head}</tr></thead>`,
    body,
    '</table>',
    sources(columns),
    details(comparison),
    '</main>',
    `<script>${orderingScript}</script>`,
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

function rowHtml(row: Row): string {
  const title = row.title ? ` title="${esc(row.title)}"` : '';
  const cells = row.cells.map((cell, i) => `<td data-col="${i}" class="s-${cell.status}">${cellText(cell)}</td>`).join('');
  return `<tr id="row-${esc(row.id)}"${row.disagree ? ' class="disagree"' : ''}><th scope="row"${title}>${esc(row.id)}${row.disagree ? ' <span class="differs">differs</span>' : ''}</th><td class="level">${row.level}</td>${cells}</tr>`;
}

function cellText(cell: Cell): string {
  return cell.anchor ? `<a href="#${esc(cell.anchor)}">${esc(cell.status)}</a>` : esc(cell.status);
}

function sources(columns: readonly Column[]): string {
  const items = columns.map(
    (c) =>
      `<li><strong>${esc(c.label)}</strong>: ${esc(c.baseUrl)} · ${esc(c.profile)} · ${esc(c.suite)} · ${esc(c.verdict)} · from <code>${esc(c.source)}</code></li>`,
  );
  return `<section id="runs"><h2>Runs</h2><ul>${items.join('')}</ul></section>`;
}

function details(comparison: Comparison): string {
  const blocks: string[] = [];
  comparison.columns.forEach((column, i) => {
    for (const group of comparison.groups) {
      for (const row of group.rows) {
        const cell = row.cells[i]!;
        if (!cell.anchor) continue;
        const message = cell.message
          ? `<pre>${esc(cell.message)}</pre>`
          : '<p class="note">The statement records the status only; the run\'s report holds what was sent and what came back.</p>';
        const link = cell.href ? `<p><a href="${esc(cell.href)}">${esc(row.id)} in this run's report</a></p>` : '';
        blocks.push(
          `<div class="detail" id="${esc(cell.anchor)}"><h3>${esc(column.label)}: ${esc(row.id)} (${row.level}) ${esc(cell.status)}</h3>${row.title ? `<p>${esc(row.title)}</p>` : ''}${message}${link}</div>`,
        );
      }
    }
  });
  return `<section id="details"><h2>Failures and errors (${blocks.length})</h2>${blocks.length > 0 ? blocks.join('\n') : '<p class="none">No check failed and none errored.</p>'}</section>`;
}

const css = [
  'body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b}',
  'header{padding:16px 24px;background:#263238;color:#fff}header h1{margin:0 0 4px;font-size:22px}',
  'main{padding:16px 24px}',
  '.warning{background:#fff3cd;border:2px solid #b26a00;padding:8px 12px;margin:8px 0;font-weight:600}',
  'table{border-collapse:collapse;margin:12px 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}',
  'thead th{background:#eceff1;cursor:default}.impl{display:block;font-weight:700}.sub{display:block;font-weight:400;font-size:12px;color:#455a64}',
  'tr.group th{background:#cfd8dc}tr.disagree{background:#fff8e1}tr.disagree th{border-left:4px solid #b26a00}',
  '.differs{font-size:11px;color:#b26a00;font-weight:700}',
  '.s-passed{color:#2e7d32}.s-failed,.s-error{color:#c62828;font-weight:700}.s-skipped,.s-not-applicable,.s-not-run,.s-absent{color:#757575}',
  '.detail{border-left:4px solid #c62828;padding:4px 12px;margin:12px 0}pre{white-space:pre-wrap;background:#f5f5f5;padding:8px}',
  '.note,.none{color:#555}',
].join('');

/** Reorders every row's implementation cells after the header's failure counts. */
export const orderingScript = `for(const b of document.querySelectorAll('button[data-sort]'))b.addEventListener('click',()=>{const t=document.getElementById('matrix');const heads=[...t.tHead.rows[0].querySelectorAll('th[data-col]')];const key=(h)=>b.dataset.sort==='given'?Number(h.dataset.col):b.dataset.sort==='most'?-Number(h.dataset.failures):Number(h.dataset.failures);const order=heads.sort((x,y)=>key(x)-key(y)||Number(x.dataset.col)-Number(y.dataset.col)).map((h)=>h.dataset.col);for(const row of t.rows){const cells=[...row.querySelectorAll('[data-col]')];if(cells.length===0)continue;for(const col of order)row.appendChild(cells.find((c)=>c.dataset.col===col));}});`;
