import type { Statement } from './statement.ts';

export interface BadgeText {
  label: string;
  message: string;
  colour: string;
}

const colours = { conforms: '#2e7d32', fails: '#c62828', incomplete: '#b26a00', none: '#616161' } as const;

/** What the badge says: the verdict in a word or a count, the profile, and the suite that judged. */
export function badgeText(s: Pick<Statement, 'suite' | 'run' | 'verdict' | 'checks'>): BadgeText {
  const label = `Agent API · ${s.run.profile}`;
  const suite = `${s.suite.name} ${s.suite.version}`;
  switch (s.verdict.verdict) {
    case 'conforms':
      return { label, message: `conforms · ${suite}`, colour: colours.conforms };
    case 'does not conform': {
      // With --fail-on should a run can fail on SHOULD checks alone: say which level failed.
      const should = s.checks.filter((c) => c.level === 'SHOULD' && c.status === 'failed' && c.effect === 'blocks').length;
      const count = s.verdict.mustFailed > 0 ? `${s.verdict.mustFailed} MUST failed` : `${should} SHOULD failed`;
      return { label, message: `${count} · ${suite}`, colour: colours.fails };
    }
    case 'incomplete':
      return { label, message: `incomplete · ${suite}`, colour: colours.incomplete };
    default:
      return { label, message: `no verdict · ${suite}`, colour: colours.none };
  }
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Width in pixels of text in 11px Verdana, near enough: a badge only needs room for it. */
const widthOf = (text: string) => Math.round([...text].length * 6.6 + 12);

/** badge.svg: a flat two-part badge, self-contained (no fonts or images fetched). */
export function renderBadge(s: Pick<Statement, 'suite' | 'run' | 'verdict' | 'checks'>): string {
  const { label, message, colour } = badgeText(s);
  const left = widthOf(label);
  const right = widthOf(message);
  const total = left + right;
  const title = `${label}: ${message}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${left}" height="20" fill="#555"/>`,
    `<rect x="${left}" width="${right}" height="20" fill="${colour}"/>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${left / 2}" y="14">${esc(label)}</text>`,
    `<text x="${left + right / 2}" y="14">${esc(message)}</text>`,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
