/**
 * The repository's import graph and the rules it keeps: no circles, and no import that runs upward
 * through the layers of src/ (README, "Architecture"). `npm run imports` prints what breaks them;
 * test/architecture.test.ts fails on it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Layers from the bottom up: a file may import its own folder and the layers below its own. */
export const layers: readonly (readonly string[])[] = [
  ['src/core'],
  ['src/spec'],
  ['src/http'],
  ['src/safety'],
  ['src/harness'],
  ['src/config'],
  ['src/runner'],
  ['reporters', 'src/diff', 'src/pact', 'src/vendor'],
  ['src/cli'],
];

const SCANNED = ['src', 'suites', 'reporters', 'fixtures', 'scripts', 'bin'];

export interface Edge {
  from: string;
  to: string;
  /** Only resolved at run time (`await import(...)`), e.g. the embedded reference. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(repoRoot, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

export function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const dynamicSpecs = new Set([...text.matchAll(/await import\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1]));
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const to = relative(repoRoot, resolve(repoRoot, dirname(file), ref.fileName));
      edges.push({ from: file, to, dynamic: dynamicSpecs.has(ref.fileName) });
    }
  }
  return edges;
}

const folderOf = (file: string) => dirname(file);

export function layerOf(file: string): number | undefined {
  const index = layers.findIndex((layer) => layer.some((folder) => file === folder || file.startsWith(`${folder}/`)));
  return index < 0 ? undefined : index;
}

/** Imports within src/ and reporters/ that go to a higher layer, or sideways to another folder of the same layer. */
export function upwardEdges(edges: readonly Edge[]): Edge[] {
  return edges.filter(({ from, to }) => {
    const a = layerOf(from);
    const b = layerOf(to);
    if (a === undefined || b === undefined || folderOf(from) === folderOf(to)) return false;
    return b > a || (b === a && !sameTop(from, to, a));
  });
}

function sameTop(from: string, to: string, layer: number): boolean {
  const top = (file: string) => layers[layer]!.find((folder) => file.startsWith(`${folder}/`));
  return top(from) === top(to);
}

/** What the layers do not cover: the checks reach the harness through its index only; fixtures stand apart from the harness. */
export function boundaryEdges(edges: readonly Edge[]): Edge[] {
  return edges.filter(({ from, to }) => {
    if (from.startsWith('suites/')) return to.startsWith('src/') && to !== 'src/harness/index.ts';
    if (from.startsWith('fixtures/')) return !(to.startsWith('fixtures/') || to.startsWith('src/core/') || to.startsWith('src/spec/'));
    if (from.startsWith('src/') || from.startsWith('reporters/'))
      return to.startsWith('fixtures/') && !(from.startsWith('src/cli/') || from.startsWith('src/runner/'));
    return false;
  });
}

/** Every circle of imports (a dynamic import counts: it is a dependency all the same), each as the list of files on it (Tarjan's strongly connected components). */
export function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || next.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = importEdges();
  const report = { circles: circles(edges), upward: upwardEdges(edges), boundary: boundaryEdges(edges) };
  const files = new Set(edges.flatMap((e) => [e.from, e.to])).size;
  console.log(`${edges.length} imports between ${files} files`);
  for (const circle of report.circles) console.log(`circle: ${circle.join(' <-> ')}`);
  for (const e of report.upward) console.log(`upward: ${e.from} -> ${e.to}`);
  for (const e of report.boundary) console.log(`boundary: ${e.from} -> ${e.to}`);
  const problems = report.circles.length + report.upward.length + report.boundary.length;
  console.log(problems === 0 ? 'no circles, no upward imports, no boundary crossings' : `${problems} problems`);
  process.exitCode = problems === 0 ? 0 : 1;
}
