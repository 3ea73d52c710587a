/**
 * Lists the exported names of src/ that no other module imports: from src/, test/, bench/ or
 * tools/ (static imports, re-exports, `import type`; a namespace import, `export *` or a dynamic
 * import counts as using every name of its module). The library's public API (src/core/index.ts
 * and what it re-exports) and the entry points build.mjs bundles are not listed, nor is a name
 * that a worker pool calls by name. Each line says whether the name is used in its own file (then
 * only its `export` may go) or nowhere (then the code may go), and marks types: a type that names
 * the shape of an exported function's argument or result is that module's interface, kept.
 *
 *   npx tsx tools/dead-exports.ts [--values] [folder-prefix …]     e.g. src/match src/search
 *
 * `--values`: only values (not types): what test/tools/dead-exports.test.ts keeps at none (but the
 * typed error of an exported parse function).
 *
 * It also fails (exit code 1, a `defined twice` line per name or pattern on stderr) when two files
 * of src/ define the same top-level name, exported or not (a function, a class, a variable, or an
 * exported type), or write the same regular expression literal of 10 characters or more: one name,
 * one thing, written once. A copy (`squareOf` beside `squareName`, a move pattern in four files)
 * drifts apart from its original; two `PlayedGame`s or two `CTRL_STOP`s that mean different things
 * make every reader check which one an import is. Shorter patterns (`\s+`, `^\d+$`) are idioms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';
import { helpIfAsked } from './help';

// required, not imported: an import of this 9 MB CommonJS file first scans it for its export names
const ts: typeof TS = createRequire(import.meta.url)('typescript');

/** The repository (DEAD_EXPORTS_ROOT: another tree, for the tool's own test). */
const ROOT = process.env.DEAD_EXPORTS_ROOT ?? fileURLToPath(new URL('..', import.meta.url));

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'fixtures') out.push(...files(p));
    } else if (/\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Entry points (build.mjs, worker files loaded by name) and the public API: their exports are API. */
const API_FILES = new Set([
  'src/core/index.ts',
  'src/cli.ts',
  'src/gui/page/main.ts',
  'src/web/main.ts',
  'src/web/coi-sw.ts',
  'src/web/web-search-worker.ts',
  'src/distributed/page/main.ts',
  ...readdirSync(path.join(ROOT, 'src/threads'))
    .filter((f) => f.endsWith('-worker.ts'))
    .map((f) => `src/threads/${f}`),
]);
/** Names a pool calls by name (piscina's `name` option): used though nothing imports them. */
const CALLED_BY_NAME = new Set(['clear']);

const all = [
  ...files('src'),
  ...files('test'),
  ...files('bench'),
  ...files('tools'),
  ...readdirSync(ROOT).filter((f) => /\.(ts|mjs)$/.test(f)),
];
const used = new Map<string, Set<string>>(); // file → imported names ('*' = all)
const use = (file: string, name: string): void => {
  let s = used.get(file);
  if (!s) used.set(file, (s = new Set()));
  s.add(name);
};

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.join(path.dirname(from), spec).replace(/\.js$/, '');
  for (const c of [`${base}.ts`, `${base}.mts`, path.join(base, 'index.ts'), base]) {
    if (all.includes(c)) return c;
  }
  return null;
}

/** Each file read and parsed once: the import scan, the listing and the duplicate check share it. */
const sources = new Map<string, { text: string; sf: TS.SourceFile }>();
function source(file: string): { text: string; sf: TS.SourceFile } {
  let s = sources.get(file);
  if (!s) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    s = { text, sf: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) };
    sources.set(file, s);
  }
  return s;
}

for (const file of all) {
  const { sf } = source(file);
  const visit = (node: TS.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolve(file, node.moduleSpecifier.text);
      const c = node.importClause;
      if (target && c) {
        if (c.name) use(target, 'default');
        const b = c.namedBindings;
        if (b && ts.isNamespaceImport(b)) use(target, '*');
        if (b && ts.isNamedImports(b)) for (const e of b.elements) use(target, (e.propertyName ?? e.name).text);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolve(file, node.moduleSpecifier.text);
      if (target) {
        const c = node.exportClause;
        if (!c || ts.isNamespaceExport(c)) use(target, '*');
        else for (const e of c.elements) use(target, (e.propertyName ?? e.name).text);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const a = node.arguments[0];
      const target = a && ts.isStringLiteral(a) ? resolve(file, a.text) : null;
      if (target) use(target, '*');
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const target = resolve(file, node.argument.literal.text);
      if (target) use(target, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/** The names a file declares with `export` (not re-exports), and whether its own code uses each. */
function ownExports(file: string): Array<{ name: string; line: number; usedHere: boolean; type?: boolean }> {
  const { text, sf } = source(file);
  const out: Array<{ name: string; line: number; usedHere: boolean; type?: boolean }> = [];
  const exported = (n: TS.Node): boolean =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const add = (id: TS.Identifier | undefined, isDefault = false, type = false): void => {
    if (!id && !isDefault) return;
    const name = isDefault ? 'default' : id!.text;
    const count = id ? (text.match(new RegExp(`\\b${id.text}\\b`, 'g')) ?? []).length : 0;
    out.push({
      name,
      line: sf.getLineAndCharacterOfPosition((id ?? sf).getStart()).line + 1,
      usedHere: count > 1,
      type,
    });
  };
  for (const s of sf.statements) {
    if (!exported(s)) continue;
    const isDefault = ((ts.canHaveModifiers(s) ? ts.getModifiers(s) : undefined) ?? []).some(
      (m) => m.kind === ts.SyntaxKind.DefaultKeyword,
    );
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name);
    } else if (
      ts.isFunctionDeclaration(s) ||
      ts.isClassDeclaration(s) ||
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s) ||
      ts.isEnumDeclaration(s)
    ) {
      if (isDefault)
        out.push({ name: 'default', line: sf.getLineAndCharacterOfPosition(s.getStart()).line + 1, usedHere: false });
      else
        add(s.name as TS.Identifier | undefined, false, ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s));
    }
  }
  return out;
}

/**
 * Names that two files of src/ may define, each with the reason (and, for a copy kept for now, what
 * ends it). Keep it short: a name here is a name a reader must check.
 */
const TWICE_ALLOWED = new Map([
  ['SearchPool', "the Node host's pool and the page's (src/protocol, src/web): until both run on one pool core"],
  ['now', 'performance.now() by a short name in each file that reads the clock: the platform call, not a value'],
  ['el', "two pages' helpers: the status page's element table, the board's SVG-element maker"],
  [
    'storage',
    "the page's storage, looked up safely: puzzle mode cannot import the controller; until its host lends it",
  ],
]);

/** The shortest regular expression (its pattern, between the slashes) that counts as a value, not an idiom. */
const MIN_PATTERN = 10;

/** The top-level names a file defines, exported or not: functions, classes, variables (not a default export). */
function topLevelNames(file: string): Array<{ name: string; line: number }> {
  const { sf } = source(file);
  const out: Array<{ name: string; line: number }> = [];
  const add = (id: TS.Identifier): void => {
    out.push({ name: id.text, line: sf.getLineAndCharacterOfPosition(id.getStart()).line + 1 });
  };
  for (const s of sf.statements) {
    const mods = (ts.canHaveModifiers(s) ? ts.getModifiers(s) : undefined) ?? [];
    if (mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) continue;
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name);
    } else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) add(s.name);
  }
  return out;
}

/** The regular expression literals of a file with a pattern of MIN_PATTERN characters or more. */
function patterns(file: string): Array<{ text: string; line: number }> {
  const { sf } = source(file);
  const out: Array<{ text: string; line: number }> = [];
  const visit = (node: TS.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(sf);
      if (text.lastIndexOf('/') - 1 >= MIN_PATTERN)
        out.push({ text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * What two or more files of src/ define: a top-level name (or an exported type's), or a regular
 * expression literal; each with where (one place per file).
 */
function duplicates(): Map<string, string[]> {
  const where = new Map<string, Map<string, number>>();
  const note = (key: string, file: string, line: number): void => {
    const files = where.get(key) ?? new Map<string, number>();
    if (!files.has(file)) files.set(file, line);
    where.set(key, files);
  };
  for (const file of all) {
    if (!file.startsWith('src/')) continue;
    for (const e of ownExports(file)) if (e.name !== 'default') note(e.name, file, e.line);
    for (const n of topLevelNames(file)) note(n.name, file, n.line);
    for (const p of patterns(file)) note(p.text, file, p.line);
  }
  return new Map(
    [...where]
      .filter(([key, files]) => files.size > 1 && !TWICE_ALLOWED.has(key))
      .map(([key, files]) => [key, [...files].map(([f, line]) => `${f}:${line}`)]),
  );
}

helpIfAsked(import.meta.url);
const valuesOnly = process.argv.includes('--values');
const prefixes = process.argv.slice(2).filter((a) => a !== '--values');
let n = 0;
for (const file of all) {
  if (!file.startsWith('src/') || API_FILES.has(file)) continue;
  if (prefixes.length > 0 && !prefixes.some((p) => file.startsWith(p))) continue;
  const u = used.get(file) ?? new Set<string>();
  if (u.has('*')) continue;
  for (const e of ownExports(file)) {
    if (u.has(e.name) || CALLED_BY_NAME.has(e.name) || (valuesOnly && e.type)) continue;
    // what src/core/index.ts re-exports (export *) is the library's API
    const what = e.usedHere ? 'used in its own file: only the export may go' : 'used nowhere';
    console.log(`${file}:${e.line}  ${e.type ? 'type ' : ''}${e.name}  (${what})`);
    n++;
  }
}
console.error(`${n} exported names that no other module imports`);
const twice = duplicates();
for (const [name, list] of twice) console.error(`defined twice: ${name} (${list.join(', ')})`);
if (twice.size > 0) {
  console.error(
    `${twice.size === 1 ? 'a name or pattern is' : `${twice.size} names or patterns are`} defined in more than one file of src/: keep one in the lowest floor that may hold it and import it there, or rename one that means something else`,
  );
  process.exitCode = 1;
}
