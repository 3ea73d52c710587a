/**
 * The engine and its protocol run on any host (src/engine/host.ts): from uci.ts, and from the static
 * page's entry, no import that is not type-only reaches a Node module (`node:…`), a package (but
 * the pure-JavaScript ones PAGE_PACKAGES lists), or the Node host's own modules (src/node). (build.mjs bundles the page without swapping any module.)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Specifiers of the imports and re-exports of `source` that are not type-only. */
function valueImports(source: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m[2]) continue; // import type … / export type …
    const names = m[3]?.trim() ?? '';
    // `import { type A, type B } from …` is type-only too
    const braces = /^\{([^}]*)\}$/.exec(names);
    if (
      braces &&
      braces[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '))
    )
      continue;
    out.push(m[4]);
  }
  return out;
}

/** Every module reached from `entry`, and the specifiers that leave src/ (packages, `node:…`). */
function reach(entry: string): { files: Set<string>; outside: Set<string> } {
  const files = new Set<string>();
  const outside = new Set<string>();
  const todo = [path.join(ROOT, entry)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        outside.add(spec);
        continue;
      }
      const base = path.resolve(path.dirname(file), spec);
      if (/\.(json|css|svg)$/.test(spec) && existsSync(base)) continue; // data, bundled as is
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((p) => existsSync(p));
      if (!target) throw new Error(`${path.relative(ROOT, file)}: cannot resolve ${spec}`);
      todo.push(target);
    }
  }
  return { files, outside };
}

const NODE_HOST = ['node-host.ts', 'search-pool.ts', 'network-file.ts'].map((f) => path.join(ROOT, 'src/node', f));

describe('the engine host', () => {
  it('the walker sees what the Node host imports', () => {
    const { files, outside } = reach('src/node/loop.ts');
    expect(outside).toContain('node:os');
    expect(outside).toContain('node:fs');
    for (const f of NODE_HOST) expect(files).toContain(f);
  });

  /**
   * The packages the static page may bundle: pure JavaScript, no Node API (the pictures it saves:
   * fflate's zlib for PNG, gifenc for GIF, src/analysis/picture/; idb for the kept games in
   * IndexedDB, src/gui/page/state). The engine reaches none.
   */
  const PAGE_PACKAGES: Record<string, string[]> = {
    'src/protocol/uci.ts': [],
    'src/web/main.ts': ['fflate', 'gifenc', 'idb'],
  };
  for (const [entry, packages] of Object.entries(PAGE_PACKAGES)) {
    it(`${entry} reaches no Node module and no module of the Node host`, () => {
      const { files, outside } = reach(entry);
      expect(files.size).toBeGreaterThan(10);
      expect([...outside].sort()).toEqual(packages);
      for (const f of NODE_HOST) expect(files).not.toContain(f);
    });
  }
});
