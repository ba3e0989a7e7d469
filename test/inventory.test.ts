import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allMutants } from '../fixtures/mutants/index.ts';
import { sentenceProblems, inventoryProblems } from '../src/spec/inventory/audit.ts';
import { inventory, inventoryElements } from '../src/spec/inventory/index.ts';
import { pending } from '../src/spec/inventory/pending.ts';
import { specSentences } from '../src/spec/inventory/sentences.ts';
import { requirement, rule, statement } from '../src/spec/inventory/types.ts';

// The spec lives beside the repository (shared/spec), not in it: the project holds no spec text.
const specPath = process.env.CONFORM_SPEC ?? new URL('../../shared/spec/agent-api.md', import.meta.url).pathname;
const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : undefined;

describe('statement inventory', () => {
  it.skipIf(spec === undefined)('holds every sentence of the spec, section by section, in order', () => {
    expect(sentenceProblems(spec!)).toEqual([]);
    expect(inventory.flatMap((s) => s.sentences)).toHaveLength(specSentences(spec!).length);
  });

  it('sees a sentence the spec gains, loses or rewords', () => {
    const text = ['## 1. One', '- A key reads. A key writes once.', '', '| a | b |', '|---|---|', '| x | y |'].join('\n');
    const sentences = specSentences(text);
    expect(sentences.map((s) => s.section)).toEqual(['§1', '§1', '§1']);
    const sections = [{ section: '§1', sentences: sentences.map((s) => ({ digest: s.digest, kind: 'prose' as const, says: 'x', statements: [] })) }];
    expect(sentenceProblems(text, sections)).toEqual([]);
    expect(sentenceProblems(text.replace('once', 'twice'), sections)[0]).toContain('A key writes twice.');
    expect(sentenceProblems(`${text}\n| z | w |`, sections).join('\n')).toContain('not in the inventory');
    expect(sentenceProblems(text.replace('- A key reads. ', '- '), sections).length).toBeGreaterThan(0);
  });

  it('gives every element a check and a mutant, or a reviewed reason on the pending list', () => {
    expect(inventoryProblems()).toEqual({ shape: [], uncovered: [], coveredAndPending: [], orphans: [] });
  });

  it('catches an element left bare, a pending line that is stale or names nothing, and a requirement with no element', () => {
    const sections = [
      {
        section: '§1',
        sentences: [
          requirement('00000001', 'a key reads', [statement('C1.1', 'reads', [rule('covered one'), rule('pending one'), rule('bare one')])]),
          requirement('00000002', 'a key writes once', []),
        ],
      },
    ];
    const problems = inventoryProblems(
      sections,
      { 'C1.1 covered one': [['PAGE-008'], ['read-list-refused']] },
      {
        'C1.1 pending one': 'waiting for a check that sends this request',
        'C1.1 covered one': 'stale: covered since',
        'C1.1 no such element': 'names nothing the inventory has',
      },
    );
    expect(problems.uncovered).toEqual(['C1.1 bare one']);
    expect(problems.coveredAndPending).toEqual(['C1.1 covered one']);
    expect(problems.orphans).toEqual(['C1.1 no such element']);
    expect(problems.shape).toEqual(['§1 00000002: a requirement with no element']);
  });

  it('keeps each pending reason specific to what is missing, and names only mutants that exist', () => {
    for (const [key, why] of Object.entries(pending)) expect(why.length, key).toBeGreaterThan(30);
    const ids = new Set(allMutants.map((m) => m.id));
    const named = Object.values(pending).flatMap((why) => [...why.matchAll(/blind mutant (\S+) makes/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('expands the global statements over what they govern', () => {
    const names = inventoryElements().map((e) => e.key);
    const count = (re: RegExp) => names.filter((n) => re.test(n)).length;
    // scoping: every endpoint of §4, under each of its request shapes
    expect(
      count(/^C5\.2 no other user's data from \/(artifacts|artifact|uses|players|proposals|types|upcoming-interactions|artifact-kept)\.php/),
    ).toBeGreaterThan(30);
    // nine row fields × every listing mode
    expect(count(/^C4\.10 .* in every row under /) % 9).toBe(0);
    expect(count(/^C4\.10 .* in every row under /)).toBeGreaterThanOrEqual(9 * 18);
    // 400 × every filter × every wrong kind of value
    for (const f of ['kept', 'physical', 'digital', 'secondary_collection', 'type_id'])
      expect(count(new RegExp(`^C4\\.11 ${f} given `))).toBeGreaterThanOrEqual(4);
    // the toggle's frame × the record's fields and every extra body field
    expect(count(/^C3\.3 .* sent beside id and is_kept is not applied$/)).toBeGreaterThanOrEqual(15);
  });
});
