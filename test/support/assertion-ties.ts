/**
 * Reads the sources of the checks (suites/) and of the helpers they assert through (src/), and finds
 * every assertion with the clause it names: the audit of issue 12, kept honest by test/clauses.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './cli.ts';

/** The assertion helpers of src/harness/expect.ts; each takes the clause id as its first argument. */
const ASSERTIONS = new Set(['ensure', 'fail', 'okRows', 'okObject', 'okJson', 'refused', 'badRequestWithErrors', 'ensureNo5xx']);

export interface AssertionSite {
  file: string;
  line: number;
  /** The assertion as written, e.g. `ensure(…)` or `notHonoured(…)` (a helper that takes a clause). */
  call: string;
  /** The clause id named, or undefined when the assertion names none. */
  clause?: string;
}

export interface CheckTies {
  /** Clause ids each check's assertions name, directly or through helpers of its own file. */
  byCheck: Map<string, Set<string>>;
  /** Every assertion found, tied or not. */
  sites: AssertionSite[];
}

const literal = (node: ts.Node | undefined): string | undefined => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
const calleeName = (call: ts.CallExpression): string | undefined => (ts.isIdentifier(call.expression) ? call.expression.text : undefined);

/** Helpers of a file by name: function declarations, `const f = (…) =>`, and classes (model-based commands). */
function functionsOf(source: ts.SourceFile): Map<string, ts.Node> {
  const found = new Map<string, ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) found.set(node.name.text, node);
    if (ts.isClassDeclaration(node) && node.name) found.set(node.name.text, node);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    ) {
      found.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The index of a function's parameter typed ClauseId, if any: such a helper asserts for the clause its caller names. */
function clauseParameter(fn: ts.FunctionLikeDeclaration): { index: number; name: string } | undefined {
  const index = fn.parameters.findIndex((p) => p.type !== undefined && ts.isTypeReferenceNode(p.type) && p.type.typeName.getText() === 'ClauseId');
  return index < 0 ? undefined : { index, name: fn.parameters[index]!.name.getText() };
}

function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let at = node.parent; at; at = at.parent) if (ts.isFunctionLike(at) && 'body' in at) return at as ts.FunctionLikeDeclaration;
  return undefined;
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
}

/** Assertions of one file: every call of an assertion helper, or of a local helper that takes a clause. */
function assertionsIn(source: ts.SourceFile, file: string): { site: AssertionSite; node: ts.CallExpression | ts.NewExpression }[] {
  const functions = functionsOf(source);
  const clauseTaking = new Map(
    [...functions].flatMap(([name, fn]) => {
      const parameter = ts.isFunctionLike(fn) ? clauseParameter(fn as ts.FunctionLikeDeclaration) : undefined;
      return parameter ? [[name, parameter.index] as const] : [];
    }),
  );
  const found: { site: AssertionSite; node: ts.CallExpression | ts.NewExpression }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const index = name === undefined ? undefined : ASSERTIONS.has(name) ? 0 : clauseTaking.get(name);
      if (index !== undefined) {
        const argument = node.arguments[index];
        // A helper's own ClauseId parameter passed on: its callers are checked instead.
        const passedOn =
          argument !== undefined &&
          ts.isIdentifier(argument) &&
          (() => {
            const fn = enclosingFunction(node);
            return fn !== undefined && clauseParameter(fn)?.name === argument.text;
          })();
        if (!passedOn) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          found.push({ site: { file, line, call: `${name}(…)`, clause: literal(argument) }, node });
        }
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'CheckFailure') {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push({ site: { file, line, call: 'new CheckFailure(…)', clause: literal(node.arguments?.[2]) }, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The id of the check whose body holds `node`, if any. */
function checkOf(node: ts.Node): string | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isCallExpression(at) && calleeName(at) === 'check' && at.arguments[0] && ts.isObjectLiteralExpression(at.arguments[0])) {
      const id = at.arguments[0].properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'id');
      return id && ts.isPropertyAssignment(id) ? literal(id.initializer) : undefined;
    }
  }
  return undefined;
}

/** The top-level function of the file that holds `node` (the helper an assertion belongs to). */
function helperOf(node: ts.Node, functions: Map<string, ts.Node>): string | undefined {
  let name: string | undefined;
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    for (const [n, fn] of functions) if (fn === at) name = n;
  }
  return name;
}

/** Names of the file's functions each function or check body calls. */
function callsIn(node: ts.Node, functions: Map<string, ts.Node>): Set<string> {
  const called = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && functions.has(n.text) && functions.get(n.text) !== n.parent) called.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return called;
}

/** The assertions of one source text (for tests of this reader itself). */
export function assertionsInText(text: string, file = 'inline.ts'): AssertionSite[] {
  return assertionsIn(ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true), file).map((a) => a.site);
}

export function assertionTies(): CheckTies {
  const byCheck = new Map<string, Set<string>>();
  const sites: AssertionSite[] = [];
  const suites = readdirSync(join(repoRoot, 'suites'))
    .filter((f) => f.endsWith('.check.ts'))
    .map((f) => join('suites', f));
  for (const file of suites) {
    const source = parse(join(repoRoot, file));
    const functions = functionsOf(source);
    const direct = new Map<string, Set<string>>();
    const byHelper = new Map<string, Set<string>>();
    for (const { site, node } of assertionsIn(source, file)) {
      sites.push(site);
      if (site.clause === undefined) continue;
      const check = checkOf(node);
      const owner = check === undefined ? helperOf(node, functions) : undefined;
      const map = check !== undefined ? direct : byHelper;
      const key = check ?? owner;
      if (key === undefined) continue;
      map.set(key, new Set([...(map.get(key) ?? []), site.clause]));
    }
    // Each check: its own assertions and those of the file's helpers it calls, followed transitively.
    const checks = new Map<string, ts.Node>();
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && calleeName(node) === 'check') {
        const id = checkOf(node.arguments[1] ?? node);
        if (id) checks.set(id, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const [id, node] of checks) {
      const clauses = new Set(direct.get(id) ?? []);
      const seen = new Set<string>();
      const pending = [...callsIn(node, functions)];
      while (pending.length > 0) {
        const helper = pending.pop()!;
        if (seen.has(helper)) continue;
        seen.add(helper);
        for (const c of byHelper.get(helper) ?? []) clauses.add(c);
        pending.push(...callsIn(functions.get(helper)!, functions));
      }
      byCheck.set(id, clauses);
    }
  }
  // The helpers in src/ that checks assert through name clauses too (not tied to one check); in kept.ts
  // only the read: the restore's own failures are about the run's safety, not about a clause.
  for (const [file, only] of [['src/harness/paging.ts'], ['src/harness/discovery.ts'], ['src/safety/kept.ts', 'readKept']] as const) {
    const source = parse(join(repoRoot, file));
    const functions = functionsOf(source);
    for (const { site, node } of assertionsIn(source, file)) if (only === undefined || helperOf(node, functions) === only) sites.push(site);
  }
  return { byCheck, sites };
}
