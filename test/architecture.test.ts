import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boundaryEdges, circles, importEdges, layerOf, upwardEdges, type Edge } from '../scripts/import-graph.ts';

const edges = importEdges();
const named = (list: readonly Edge[]) => list.map((e) => `${e.from} -> ${e.to}`);

describe('the import graph (npm run imports prints it)', () => {
  it('reads the imports of the repository', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'suites/auth.check.ts', to: 'src/harness/index.ts', dynamic: false });
  });

  it('has no circles', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('has no import that runs up the layers of src/', () => {
    expect(named(upwardEdges(edges))).toEqual([]);
  });

  it('keeps checks on the harness index and fixtures apart from the harness', () => {
    expect(named(boundaryEdges(edges))).toEqual([]);
  });

  it('places every file of src/ in a layer', () => {
    const unplaced = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((f) => f.startsWith('src/') && layerOf(f) === undefined);
    expect(unplaced).toEqual([]);
  });

  it('would see a circle, an upward import and a crossing if there were one', () => {
    const made: Edge[] = [
      { from: 'src/core/a.ts', to: 'src/core/b.ts', dynamic: false },
      { from: 'src/core/b.ts', to: 'src/core/a.ts', dynamic: true },
      { from: 'src/spec/x.ts', to: 'src/runner/y.ts', dynamic: false },
      { from: 'reporters/r.ts', to: 'src/diff/d.ts', dynamic: false },
      { from: 'suites/s.check.ts', to: 'src/harness/check.ts', dynamic: false },
    ];
    expect(circles(made)).toEqual([['src/core/a.ts', 'src/core/b.ts']]);
    expect(named(upwardEdges(made))).toEqual(['src/spec/x.ts -> src/runner/y.ts', 'reporters/r.ts -> src/diff/d.ts']);
    expect(named(boundaryEdges(made))).toEqual(['suites/s.check.ts -> src/harness/check.ts']);
  });
});

describe('the suites entry (suites/index.ts)', () => {
  it('declares every area file, so that no check is left out of a run', () => {
    const source = readFileSync(new URL('../suites/index.ts', import.meta.url), 'utf8');
    const listed = [...(/AREAS = \[([^\]]*)\]/.exec(source)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const files = readdirSync(new URL('../suites', import.meta.url))
      .filter((f) => f.endsWith('.check.ts'))
      .map((f) => f.replace(/\.check\.ts$/, ''));
    expect(listed.sort()).toEqual(files.sort());
  });
});
