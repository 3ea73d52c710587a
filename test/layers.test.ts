/**
 * The layout's rule, checked: every import between folders of src/ must be one that README.md's
 * floors table allows (README is the rule; this test only reads it), every folder of src/ is in the
 * table, the table has no cycle, and nothing but src/cli.ts imports src/cli.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');

/** The floors table of README.md: folder → the folders it may import ('*' = any). */
export function readFloors(readme: string): Map<string, Set<string>> {
  const start = readme.indexOf('<!-- layers -->');
  const end = readme.indexOf('<!-- /layers -->');
  if (start < 0 || end < start) throw new Error('README.md has no <!-- layers --> table');
  const floors = new Map<string, Set<string>>();
  for (const line of readme.slice(start, end).split('\n')) {
    const m = /^\|\s*([a-z][a-z-]*)\s*\|\s*(.*?)\s*\|$/.exec(line.trim());
    if (!m || m[1] === 'folder') continue;
    const allowed = m[2] === '—' ? [] : /^every folder/.test(m[2]) ? ['*'] : m[2].split(',').map((x) => x.trim());
    floors.set(m[1], new Set(allowed));
  }
  return floors;
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
