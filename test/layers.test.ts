/**
 * The layout's rule, checked: every import between folders of src/ must be one that README.md's
 * floors table allows (README is the rule; this test only reads it), every folder of src/ is in the
 * table, the table has no cycle, and nothing but src/cli.ts imports src/cli. The GUI page's rooms
 * (src/gui/page/state, view, engine, modes and the files at its top) are checked the same way
 * against the second table, in docs/layout.md; and a file of state/ may touch neither the DOM nor
 * the engine. A thread's entry point is named where its threads start (so these imports are seen
 * too), and no file name stands in two folders of src/ with two meanings.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');

/** A table between `<!-- NAME -->` and `<!-- /NAME -->`: the first column → the names of the second ('*' = any). */
export function readTable(text: string, name: string): Map<string, Set<string>> {
  const start = text.indexOf(`<!-- ${name} -->`);
  const end = text.indexOf(`<!-- /${name} -->`);
  if (start < 0 || end < start) throw new Error(`no <!-- ${name} --> table`);
  const rows = new Map<string, Set<string>>();
  for (const line of text.slice(start, end).split('\n')) {
    const m = /^\|\s*`?([a-z][a-z-]*)\/?`?\s*\|\s*(.*?)\s*\|$/.exec(line.trim());
    if (!m || m[1] === 'folder' || m[1] === 'room') continue;
    const allowed =
      m[2] === '—'
        ? []
        : /^every folder/.test(m[2])
          ? ['*']
          : m[2].split(',').map((x) => x.trim().replace(/[`/]+$|^`/g, ''));
    rows.set(m[1], new Set(allowed));
  }
  return rows;
}

/** The floors table of README.md: folder → the folders it may import ('*' = any). */
export function readFloors(readme: string): Map<string, Set<string>> {
  if (readme.indexOf('<!-- layers -->') < 0) throw new Error('README.md has no <!-- layers --> table');
  return readTable(readme, 'layers');
}

/** Relative import specifiers of a TypeScript file: static, type-only, re-exports, dynamic, `new URL`. */
export function relativeImports(source: string): string[] {
  const re =
    /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|new URL\(\s*['"`](\.{1,2}\/[^'"`$]+)['"`]/g;
  const out: string[] = [];
  for (let m = re.exec(source); m; m = re.exec(source)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The folder of src/ a path lies in ('' for a file directly in src/, null outside src/). */
function floorOf(file: string): string | null {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  return parts.length === 1 ? '' : parts[0];
}

interface Crossing {
  from: string;
  to: string;
  file: string;
  target: string;
}

function crossings(): Crossing[] {
  const out: Crossing[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = floorOf(file);
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec);
      const to = floorOf(target);
      if (from === null || to === null || from === to) continue;
      out.push({
        from: from || path.basename(file),
        to: to || path.basename(target).replace(/\.[a-z]+$/, ''),
        file,
        target,
      });
    }
  }
  return out;
}

const PAGE = path.join(SRC, 'gui', 'page');

/** The room of the GUI page a path lies in (its folder under src/gui/page, 'top' for the page's own files), or null. */
function roomOf(file: string): string | null {
  const rel = path.relative(PAGE, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length === 1 ? 'top' : parts[0];
}

/** What an import from the page reaches: a room, `src/<folder>` (src/gui: its files outside the page), or null outside src/. */
function placeOf(target: string): string | null {
  const room = roomOf(target);
  if (room) return room;
  const floor = floorOf(target);
  if (floor === null) return null;
  return floor === '' ? `src/${path.basename(target).replace(/\.[a-z]+$/, '')}` : `src/${floor}`;
}

/** The imports of a file of the page that its rooms' table does not allow. */
export function roomViolations(file: string, source: string, rooms: Map<string, Set<string>>): string[] {
  const from = roomOf(file);
  if (from === null) return [];
  const bad: string[] = [];
  for (const spec of relativeImports(source)) {
    const target = path.resolve(path.dirname(file), spec);
    const to = placeOf(target);
    if (to === null || to === from || to === 'src/version') continue;
    if (!rooms.get(from)?.has(to)) {
      bad.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)} (${from} may not import ${to})`);
    }
  }
  return bad;
}

/**
 * What a file of state/ must not touch, its comments left out: the browser's document and
 * window (and what hangs off them: storage, timers, the address, events, elements, audio) and
 * the engine (the page's engine client, a socket, a worker).
 */
const NOT_IN_STATE =
  /\b(?:document|window|globalThis|navigator|location|localStorage|sessionStorage|matchMedia|requestAnimationFrame|setTimeout|setInterval|performance|(?:HTML|SVG)\w*Element|Element|Node|[A-Z]\w*Event|AudioContext|WebSocket|Worker|EngineClient|EngineLink|postMessage|fetch)\b/g;

/** The DOM and engine names a file of state/ uses (comments and strings left out). */
export function stateTouches(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
  return [...new Set([...code.matchAll(NOT_IN_STATE)].map((m) => m[0]))];
}

describe('layers: README.md floors table', () => {
  const floors = readFloors(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

  it('reads the table', () => {
    expect(floors.get('core')?.size).toBe(0);
    expect(floors.get('cli')?.has('*')).toBe(true);
  });

  it('lists every folder of src/', () => {
    const dirs = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs.filter((d) => !floors.has(d))).toEqual([]);
  });

  it('has no cycle', () => {
    const state = new Map<string, number>();
    const cycle: string[] = [];
    const visit = (f: string, stack: string[]): boolean => {
      if (state.get(f) === 2) return false;
      if (state.get(f) === 1) {
        cycle.push(...stack.slice(stack.indexOf(f)), f);
        return true;
      }
      state.set(f, 1);
      for (const g of floors.get(f) ?? []) if (g !== '*' && visit(g, [...stack, f])) return true;
      state.set(f, 2);
      return false;
    };
    for (const f of floors.keys()) if (visit(f, [])) break;
    expect(cycle).toEqual([]);
  });

  it('every import between folders is one the table allows', () => {
    const bad: string[] = [];
    for (const c of crossings()) {
      if (c.to === 'version') continue;
      if (c.to === 'cli') {
        if (c.from !== 'cli.ts') bad.push(`${path.relative(ROOT, c.file)} imports src/cli (only src/cli.ts may)`);
        continue;
      }
      if (c.from === 'cli.ts') continue;
      const allowed = floors.get(c.from);
      if (!allowed || !(allowed.has('*') || allowed.has(c.to))) {
        bad.push(
          `${path.relative(ROOT, c.file)} → ${path.relative(ROOT, c.target)} (${c.from} may not import ${c.to})`,
        );
      }
    }
    expect(bad).toEqual([]);
  });

  it('catches an import the wrong way (the check can fail)', () => {
    expect(
      relativeImports("import { x } from '../search/search';\nimport type {\n  Y,\n} from '../core/index';"),
    ).toEqual(['../search/search', '../core/index']);
    expect(
      relativeImports("const w = new URL('./search-worker.js', import.meta.url); await import('../cli/x');"),
    ).toEqual(['./search-worker.js', '../cli/x']);
    const t = readFloors(
      '<!-- layers -->\n| folder | may import |\n|---|---|\n| core | — |\n| search | core |\n<!-- /layers -->',
    );
    expect(t.get('core')?.has('search')).toBe(false);
    expect(t.get('search')?.has('core')).toBe(true);
  });
});

describe("layers: the GUI page's rooms (docs/layout.md)", () => {
  const rooms = readTable(readFileSync(path.join(ROOT, 'docs/layout.md'), 'utf8'), 'page-rooms');
  const pageFiles = sourceFiles(PAGE);

  it('reads the table', () => {
    expect([...rooms.keys()].sort()).toEqual(['engine', 'modes', 'state', 'top', 'view']);
    expect(rooms.get('state')?.has('src/core')).toBe(true);
    expect(rooms.get('state')?.has('view')).toBe(false);
  });

  it('lists every room of the page', () => {
    const dirs = readdirSync(PAGE, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...dirs, 'top'].filter((d) => !rooms.has(d))).toEqual([]);
  });

  it('has no cycle, and no room imports the top', () => {
    const cycle: string[] = [];
    const state = new Map<string, number>();
    const visit = (r: string, stack: string[]): boolean => {
      if (state.get(r) === 2) return false;
      if (state.get(r) === 1) {
        cycle.push(...stack.slice(stack.indexOf(r)), r);
        return true;
      }
      state.set(r, 1);
      for (const g of rooms.get(r) ?? []) if (rooms.has(g) && visit(g, [...stack, r])) return true;
      state.set(r, 2);
      return false;
    };
    for (const r of rooms.keys()) if (visit(r, [])) break;
    expect(cycle).toEqual([]);
    expect([...rooms].filter(([, may]) => may.has('top')).map(([r]) => r)).toEqual([]);
  });

  it('every import of a file of the page is one the table allows', () => {
    expect(pageFiles.length).toBeGreaterThan(50);
    expect(pageFiles.flatMap((f) => roomViolations(f, readFileSync(f, 'utf8'), rooms))).toEqual([]);
  });

  it('state/ touches neither the DOM nor the engine', () => {
    const state = pageFiles.filter((f) => roomOf(f) === 'state');
    expect(state.length).toBeGreaterThan(15);
    const bad = state.flatMap((f) => {
      const used = stateTouches(readFileSync(f, 'utf8'));
      return used.length ? [`${path.relative(ROOT, f)}: ${used.join(', ')}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('catches a room importing the wrong way, and a state file touching the DOM (the checks can fail)', () => {
    const file = path.join(PAGE, 'state', 'planted.ts');
    expect(roomViolations(file, "import { BoardView } from '../view/board';", rooms)).toHaveLength(1);
    expect(roomViolations(file, "import { Engine } from '../../../engine/engine';", rooms)).toHaveLength(1);
    expect(
      roomViolations(file, "import { tree } from './tree';\nimport { k } from '../../../core/kfen';", rooms),
    ).toEqual([]);
    expect(
      roomViolations(path.join(PAGE, 'view', 'planted.ts'), "import { PuzzleMode } from '../modes/puzzlemode';", rooms),
    ).toHaveLength(1);
    expect(stateTouches('const b = document.body;\nlet e: HTMLElement;')).toEqual(['document', 'HTMLElement']);
    expect(stateTouches('let t = setTimeout(f, 0); let c: EngineClient;')).toEqual(['setTimeout', 'EngineClient']);
    expect(stateTouches("// the document's window\n/** an Element */\nconst s = 'window';")).toEqual([]);
  });
});

describe('layers: the thread entry points are imports', () => {
  it('each entry point of src/threads is named by a `new URL` where its threads start', () => {
    const entries = readdirSync(path.join(SRC, 'threads')).filter((f) => f.endsWith('-worker.ts'));
    expect(entries.length).toBeGreaterThanOrEqual(4);
    const named = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/new URL\(\s*['"`](\.{1,2}\/[^'"`$]+)['"`]/g)) {
        named.add(path.relative(SRC, path.resolve(path.dirname(file), m[1])));
      }
    }
    expect(entries.filter((f) => !named.has(path.join('threads', f)))).toEqual([]);
  });
});

/**
 * File names that stand in several folders of src/ because they mean the same there, each with
 * the files it names and why: a new file of such a name still fails.
 */
const SAME_MEANING: Record<string, { files: string[]; why: string }> = {
  main: {
    files: ['src/distributed/page/main.ts', 'src/gui/page/main.ts', 'src/web/main.ts'],
    why: "a browser page's entry script, which build.mjs bundles as that page's app.js",
  },
  index: {
    files: ['src/core/index.ts', 'src/distributed/page/static/index.html', 'src/gui/static/index.html'],
    why: "the names Node and the browser look for: a package's entry (thoth/core), a page's document",
  },
  style: {
    files: ['src/distributed/page/static/style.css', 'src/gui/static/style.css'],
    why: "a page's stylesheet",
  },
};

/** The names (without extension) that files in more than one folder bear, but those allowed; each with its files. */
export function twinNames(files: string[], allowed: Record<string, { files: string[] }>): string[] {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const name = path.posix.basename(f).replace(/\.[^.]+$/, '');
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  const out: string[] = [];
  for (const [name, fs] of byName) {
    if (new Set(fs.map((f) => path.posix.dirname(f))).size < 2) continue;
    const ok = allowed[name];
    if (ok && [...fs].sort().join() === [...ok.files].sort().join()) continue;
    out.push(`${name}: ${fs.sort().join(', ')}`);
  }
  return out.sort();
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? allFiles(path.join(dir, e.name))
      : [path.relative(ROOT, path.join(dir, e.name)).split(path.sep).join('/')],
  );
}

describe('layers: one name, one meaning', () => {
  it('no file name stands in two folders of src/ with two meanings', () => {
    const files = allFiles(SRC);
    expect(files.length).toBeGreaterThan(200);
    expect(twinNames(files, SAME_MEANING)).toEqual([]);
  });

  it('catches a twin, and a new file of an allowed name (the check can fail)', () => {
    const files = ['src/core/position.ts', 'src/engine/position.ts', 'src/search/search.ts', 'src/core/search-x.ts'];
    expect(twinNames(files, {})).toEqual(['position: src/core/position.ts, src/engine/position.ts']);
    const pages = ['src/web/main.ts', 'src/gui/page/main.ts'];
    expect(twinNames(pages, { main: { files: pages } })).toEqual([]);
    expect(twinNames([...pages, 'src/cli/main.ts'], { main: { files: pages } })).toHaveLength(1);
  });
});
