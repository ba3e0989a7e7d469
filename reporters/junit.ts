import { describeSelection, type CheckResult, type RunResult } from '../src/runner/results.ts';
import { effectNote } from './shared.ts';

const escapeXml = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** The JUnit element a check becomes: what CI test views count and colour. */
type Kind = 'passed' | 'failure' | 'error' | 'skipped';

/**
 * Only what gates is a <failure> or <error>. A SHOULD failure that is advice is a passed testcase that
 * carries the failure in <system-out> and a property; a waived check is <skipped> with the waiver as
 * its message, so CI views show it without failing the build.
 */
function kindOf(check: CheckResult): Kind {
  if (check.effect === 'waived') return 'skipped';
  if (check.status === 'failed') return check.effect === 'advice' ? 'passed' : 'failure';
  if (check.status === 'error') return 'error';
  if (check.status === 'skipped' || check.status === 'not-applicable') return 'skipped';
  return 'passed';
}

/** junit.xml: one testsuite per area, one testcase per check, the spec section as classname. */
export function renderJunit(run: RunResult): string {
  const areas = new Map<string, CheckResult[]>();
  for (const check of run.checks) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  const count = (checks: readonly CheckResult[], kind: Kind) => checks.filter((k) => kindOf(k) === kind).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conform ${escapeXml(run.target.label)} (${run.target.profile})" tests="${run.checks.length}" failures="${count(run.checks, 'failure')}" errors="${count(run.checks, 'error')}" skipped="${count(run.checks, 'skipped')}">`,
  ];
  const properties = runProperties(run);
  for (const [area, checks] of areas) {
    const time = checks.reduce((sum, k) => sum + k.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${escapeXml(area)}" tests="${checks.length}" failures="${count(checks, 'failure')}" errors="${count(checks, 'error')}" skipped="${count(checks, 'skipped')}" time="${time.toFixed(3)}">`,
      '    <properties>',
      ...properties.map(([name, value]) => `      <property name="${name}" value="${escapeXml(value)}"/>`),
      '    </properties>',
    );
    for (const check of checks) lines.push(...testcase(check));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** The run's verdict, gate and selection, recorded on every testsuite (JUnit has no run-level properties). */
function runProperties(run: RunResult): [string, string][] {
  const properties: [string, string][] = [
    ['conform.verdict', run.verdict],
    ['conform.reason', run.reason],
    ['conform.exitCode', String(run.exitCode)],
    ['conform.failOn', run.policy.failOn],
    ['conform.allowIncomplete', String(run.policy.allowIncomplete)],
  ];
  if (run.selection) {
    properties.push(['conform.selection', describeSelection(run.selection)], ['conform.deselected', run.selection.deselected.join(',')]);
  }
  return properties;
}

function testcase(check: CheckResult): string[] {
  const open = `    <testcase classname="${escapeXml(check.sections.join(', '))}" name="${escapeXml(`${check.id} ${check.level} ${check.title}`)}" time="${(check.durationMs / 1000).toFixed(3)}"`;
  const detail = () => escapeXml(failureText(check));
  const note = effectNote(check);
  const extra =
    note === undefined
      ? []
      : ['      <properties>', `        <property name="conform.${check.effect ?? 'waiver'}" value="${escapeXml(note)}"/>`, '      </properties>'];
  const out = (text: string) => [`      <system-out>${escapeXml(text)}</system-out>`];
  switch (kindOf(check)) {
    case 'passed':
      if (check.status === 'failed')
        return [
          `${open}>`,
          ...extra,
          ...out(`ADVICE (${check.level === 'ROBUSTNESS' ? 'robustness failure' : 'SHOULD check'}, not gating): ${failureText(check)}`),
          '    </testcase>',
        ];
      return extra.length === 0 ? [`${open}/>`] : [`${open}>`, ...extra, ...out(note!), '    </testcase>'];
    case 'skipped': {
      const message =
        check.effect === 'waived'
          ? `${note!} (${check.status})`
          : check.effect === 'blocks'
            ? `not judged, the run cannot conform without it: ${check.message ?? check.status}`
            : (check.message ?? check.status);
      const body = check.effect === 'waived' && check.status !== 'skipped' ? out(failureText(check)) : [];
      return [`${open}>`, ...extra, `      <skipped message="${escapeXml(message)}"/>`, ...body, '    </testcase>'];
    }
    case 'failure':
      return [
        `${open}>`,
        ...extra,
        `      <failure message="${escapeXml(firstLine(check.message))}" type="${check.level}">${detail()}</failure>`,
        '    </testcase>',
      ];
    case 'error':
      return [`${open}>`, ...extra, `      <error message="${escapeXml(firstLine(check.message))}" type="error">${detail()}</error>`, '    </testcase>'];
  }
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

/** A failure's message, clause, exchange and reproduction; `withClause: false` when the caller shows the clause itself. */
export function failureText(check: CheckResult, options: { withClause?: boolean } = {}): string {
  const parts = [check.message ?? ''];
  if (check.clause && options.withClause !== false) parts.push(`clause ${check.clause.id} (${check.clause.section}): ${check.clause.text}`);
  if (check.exchange) {
    parts.push(`sent: ${check.exchange.request}`, `got:  ${check.exchange.status} ${check.exchange.responseBody}`);
  }
  if (check.reproduction) parts.push(`reproduce:\n${check.reproduction}`);
  return parts.join('\n');
}
