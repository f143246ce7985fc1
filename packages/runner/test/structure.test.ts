/**
 * The source's structure, checked on every test run (docs/design.md, "Layout"):
 * - no circle of files: the relative-import graph of `packages/*\/src` (every `import`, `import type`,
 *   `export … from`, `import('…')`, `require('…')` whose specifier starts with `./` or `../`) has no
 *   strongly connected component of more than one file (Tarjan, 1972). A type-only edge counts: a
 *   circle of types is still one that a reader walks round and that a file move must carry whole.
 * - no source file (`.ts`/`.js` under `packages/*\/src`) over MAX_LINES lines but those on OVER_LIMIT,
 *   a list that only shrinks: a listed file at or under the limit must leave the list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';
import { REPO } from './cli-helpers';

const MAX_LINES = 300;
/** Source files still over MAX_LINES (repo-relative path → lines when listed). Remove, never add. */
const OVER_LIMIT: Record<string, number> = {};

/** Every `.ts`/`.js` file under `packages/<name>/src`, repo-relative with `/` separators, sorted. */
function sourceFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : /\.(ts|js)$/.test(e.name) ? [`${dir}/${e.name}`] : []));
  const packages = readdirSync(path.join(REPO, 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory());
  return packages.flatMap((p) => (readdirSync(path.join(REPO, 'packages', p.name)).includes('src') ? walk(`packages/${p.name}/src`) : [])).sort();
}

type Edge = { to: string; typeOnly: boolean };

/** The module specifiers `file` names, with whether the reference is type-only (parsed, so code in strings is not read). */
function specifiers(file: string, text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const lit = (n: ts.Node | undefined): string | undefined => (n && ts.isStringLiteralLike(n) ? n.text : undefined);
  const visit = (n: ts.Node): void => {
    let spec: string | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(n)) {
      spec = lit(n.moduleSpecifier);
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isExportDeclaration(n)) {
      spec = lit(n.moduleSpecifier);
      typeOnly = n.isTypeOnly;
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      spec = lit(n.argument.literal);
      typeOnly = true;
    } else if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) {
      spec = lit(n.arguments[0]);
    }
    if (spec !== undefined) out.push({ spec, typeOnly });
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false));
  return out;
}

/** file → the files it imports relatively (one edge per target; type-only when every reference is). */
function importGraph(files: string[]): Map<string, Edge[]> {
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const p = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    return [p, p.replace(/\.js$/, '.ts'), `${p}.ts`, `${p}/index.ts`, `${p}.js`].find((c) => known.has(c));
  };
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const edges = new Map<string, boolean>();
    for (const { spec, typeOnly } of specifiers(file, readFileSync(path.join(REPO, file), 'utf8'))) {
      const to = spec.startsWith('./') || spec.startsWith('../') ? resolve(file, spec) : undefined;
      if (to && to !== file) edges.set(to, (edges.get(to) ?? true) && typeOnly);
    }
    graph.set(
      file,
      [...edges].map(([to, typeOnly]) => ({ to, typeOnly })),
    );
  }
  return graph;
}

/** Tarjan's strongly connected components of `graph` with more than one file, each sorted. */
function circles(graph: Map<string, Edge[]>): string[][] {
  const [index, low] = [new Map<string, number>(), new Map<string, number>()];
  const stack: string[] = [];
  const out: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const { to } of graph.get(v)!) {
      if (!index.has(to)) connect(to);
      if (stack.includes(to)) low.set(v, Math.min(low.get(v)!, low.get(to)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

const files = sourceFiles();

test('no circle of files in the relative-import graph of packages/*/src (type-only imports count)', () => {
  const graph = importGraph(files);
  expect(files.length).toBeGreaterThan(100);
  const text = circles(graph).map((c, i) => {
    const inside = (a: string): Edge[] => graph.get(a)!.filter((e) => c.includes(e.to));
    const edges = c.flatMap((a) => inside(a).map((e) => `  ${a} → ${e.to}${e.typeOnly ? ' (type)' : ''}`));
    return [`circle ${i + 1}, ${c.length} files: ${c.join(', ')}`, ...edges.sort()].join('\n');
  });
  expect(text.join('\n')).toBe('');
});

test(`no source file over ${MAX_LINES} lines but those on OVER_LIMIT, and none listed that no longer is`, () => {
  const lines = new Map(files.map((f) => [f, readFileSync(path.join(REPO, f), 'utf8').split('\n').length - 1]));
  const over = files.filter((f) => lines.get(f)! > MAX_LINES);
  console.log(`source files over ${MAX_LINES} lines:\n${over.map((f) => `  ${lines.get(f)} ${f}`).join('\n')}`);
  const problems = [
    ...over.filter((f) => !(f in OVER_LIMIT)).map((f) => `${f}: ${lines.get(f)} lines, over ${MAX_LINES}: split it by responsibility`),
    ...Object.keys(OVER_LIMIT)
      .filter((f) => !over.includes(f))
      .map((f) => `${f}: ${lines.get(f) ?? 'no such file'}${lines.has(f) ? ' lines' : ''}, no longer over ${MAX_LINES}: remove it from OVER_LIMIT`),
  ];
  expect(problems).toEqual([]);
});
