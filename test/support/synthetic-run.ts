import type { CheckResult, RunResult } from '../../src/runner/results.ts';
import { redactor } from '../../src/core/redact.ts';
import { countStatuses, decideVerdict, defaultGate, type Circumstances, type GateOptions } from '../../src/runner/verdict.ts';

/** A key-looking string planted in the synthetic run; every written report must have it masked. */
export const SECRET = 'sk_live_5f3c9a7e1b2d4c6e8f0a';

/** A message full of characters that HTML, XML and Markdown must escape. */
export const NASTY = `title <script>alert("pwned")</script> & 'quoted' 100% \`tick\``;

export const checks = {
  passed: {
    id: 'AUTH-001',
    level: 'MUST',
    sections: ['§5'],
    title: 'every endpoint refuses a request without an Authorization header and returns no user data',
    area: 'auth',
    status: 'passed',
    durationMs: 41,
  },
  passed2: {
    id: 'PAGE-001',
    level: 'MUST',
    sections: ['§4', '§8'],
    title: 'pages never exceed the limit',
    area: 'paging',
    status: 'passed',
    durationMs: 12,
  },
  failed: {
    id: 'KEPT-001',
    level: 'MUST',
    sections: ['§3', '§4'],
    title: 'the toggle sets is_kept to exactly the value sent, in both directions',
    area: 'kept-toggle',
    status: 'failed',
    message: `is_kept of item 17 is 1 after sending 0\n${NASTY}`,
    exchange: {
      request: 'POST http://127.0.0.1:4010/artifact-kept.php {"id":17,"is_kept":0}',
      status: 200,
      responseBody: '{"ok":true,"is_kept":1,"note":"<b>kept</b> & done"}',
    },
    reproduction: `curl -sS -i -X POST 'http://127.0.0.1:4010/artifact-kept.php' -H 'Authorization: Bearer ${SECRET}' -H 'Content-Type: application/json' --data-raw '{"id":17,"is_kept":0}'`,
    durationMs: 230,
  },
  shouldFailed: {
    id: 'ENUM-002',
    level: 'SHOULD',
    sections: ['§1', '§5', '§7'],
    title: 'user enumeration answers 403 rather than another refusal',
    area: 'forbidden-writes',
    status: 'failed',
    message: 'expected 403, got 404: 50% of probes\r\nsecond line: a, b',
    exchange: { request: 'GET http://127.0.0.1:4010/users.php', status: 404, responseBody: 'not found' },
    reproduction: "curl -sS -i -X GET 'http://127.0.0.1:4010/users.php' -H 'Authorization: Bearer ***'",
    durationMs: 8,
  },
  error: {
    id: 'PAGE-003',
    level: 'MUST',
    sections: ['§4', '§8'],
    title: 'following next cursors visits every item exactly once',
    area: 'paging',
    status: 'error',
    message: 'harness error: GET /artifacts.php: no answer within 800 ms',
    durationMs: 800,
  },
  skipped: {
    id: 'PLAY-001',
    level: 'MUST',
    sections: ['§2'],
    title: "players belong to the key's household",
    area: 'players',
    status: 'skipped',
    message: 'precondition: the target has no players',
    durationMs: 0,
  },
  notApplicable: {
    id: 'STAGE-001',
    level: 'MUST',
    sections: ['§2', '§4'],
    title: 'staging list rows carry only id, Title and tags',
    area: 'staging',
    status: 'not-applicable',
    message: 'not applicable to the primary profile (applies to: staging)',
    durationMs: 0,
  },
} satisfies Record<string, CheckResult>;

/** A run built from checks, with counts, effects and verdict decided by the real verdict code. */
export function syntheticRun(
  list: readonly CheckResult[] = Object.values(checks),
  overrides: Partial<RunResult> = {},
  decide: { gate?: GateOptions; circumstances?: Circumstances } = {},
): RunResult {
  const sorted = [...list].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const gate = decide.gate ?? defaultGate;
  const decision = decideVerdict(sorted, gate, decide.circumstances);
  return {
    schemaVersion: 5,
    tool: { name: 'agent-api-conform', version: '0.1.0' },
    target: { label: 'reference & <friends>', url: 'http://127.0.0.1:4010', profile: 'primary' },
    seed: 424242,
    verdict: decision.verdict,
    reason: decision.reason,
    exitCode: decision.exitCode,
    policy: gate,
    ...(decide.circumstances?.selection ? { selection: decide.circumstances.selection } : {}),
    waivers: decision.waivers,
    counts: countStatuses(decision.checks),
    checks: decision.checks,
    safety: { changedItems: 3, restoredAfterRun: 3, problems: [] },
    ...overrides,
  };
}

/** Masks SECRET with the CLI's own redactor. */
export const redact: (text: string) => string = redactor([SECRET]);
