import type { CheckResult, RunResult } from '../src/results.ts';

const escapeXml = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** junit.xml: one testsuite per area, one testcase per check, the spec section as classname. */
export function renderJunit(run: RunResult): string {
  const areas = new Map<string, CheckResult[]>();
  for (const check of run.checks) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  const c = run.counts;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conform ${escapeXml(run.target.label)} (${run.target.profile})" tests="${run.checks.length}" failures="${c.failed}" errors="${c.error}" skipped="${c.skipped + c['not-applicable']}">`,
  ];
  for (const [area, checks] of areas) {
    const count = (s: CheckResult['status'][]) => checks.filter((k) => s.includes(k.status)).length;
    const time = checks.reduce((sum, k) => sum + k.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${escapeXml(area)}" tests="${checks.length}" failures="${count(['failed'])}" errors="${count(['error'])}" skipped="${count(['skipped', 'not-applicable'])}" time="${time.toFixed(3)}">`,
    );
    for (const check of checks) lines.push(...testcase(check));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function testcase(check: CheckResult): string[] {
  const open = `    <testcase classname="${escapeXml(check.section)}" name="${escapeXml(`${check.id} ${check.level} ${check.title}`)}" time="${(check.durationMs / 1000).toFixed(3)}"`;
  const detail = () => escapeXml(failureText(check));
  switch (check.status) {
    case 'passed':
      return [`${open}/>`];
    case 'skipped':
    case 'not-applicable':
      return [`${open}>`, `      <skipped message="${escapeXml(check.message ?? check.status)}"/>`, '    </testcase>'];
    case 'failed':
      return [`${open}>`, `      <failure message="${escapeXml(firstLine(check.message))}" type="${check.level}">${detail()}</failure>`, '    </testcase>'];
    case 'error':
      return [`${open}>`, `      <error message="${escapeXml(firstLine(check.message))}" type="error">${detail()}</error>`, '    </testcase>'];
  }
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

export function failureText(check: CheckResult): string {
  const parts = [check.message ?? ''];
  if (check.exchange) {
    parts.push(`sent: ${check.exchange.request}`, `got:  ${check.exchange.status} ${check.exchange.responseBody}`);
  }
  if (check.reproduction) parts.push(`reproduce:\n${check.reproduction}`);
  return parts.join('\n');
}
