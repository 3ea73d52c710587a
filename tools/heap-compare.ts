/**
 * Compares two V8 heap snapshots (`.heapsnapshot`, as tools/heap-snapshot-hook.mjs or
 * `node --heapsnapshot-signal` writes them): the objects grouped by constructor (or by kind for
 * V8's internal ones: code, strings, arrays), with each group's count and self size in both and
 * what changed, the groups that grew most first.
 *
 *   npx tsx tools/heap-compare.ts early.heapsnapshot late.heapsnapshot [--top 15]
 *
 * Prints the totals (objects, self size) and a table of the groups whose self size changed most.
 * Self size is what the object holds in the JavaScript heap: an ArrayBuffer's contents (a
 * transposition table) are outside it and show only as the process's resident set.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { helpIfAsked } from './help';

interface Group {
  count: number;
  size: number;
}

/** Each group's count and self size in a snapshot (test/protocol/gui-soak.test.ts counts with it too). */
export function heapGroups(file: string): Map<string, Group> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map<string, Group>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = snap.strings[snap.nodes[i + nameAt]];
    // objects and natives by constructor; the rest by kind (every string, code object, … alike)
    const key =
      type === 'object' || type === 'native' || type === 'closure'
        ? `${type} ${name}`
        : type === 'hidden' || type === 'array' || type === 'object shape' || type === 'synthetic'
          ? `${type} ${name.slice(0, 40)}`
          : `(${type})`;
    const g = out.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += snap.nodes[i + sizeAt];
    out.set(key, g);
  }
  return out;
}

function main(): void {
  helpIfAsked(import.meta.url);
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
  const files = args.filter((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1));
  if (files.length !== 2 || !Number.isInteger(top) || top < 1) {
    process.stderr.write('usage: npx tsx tools/heap-compare.ts early.heapsnapshot late.heapsnapshot [--top N]\n');
    process.exit(2);
  }
  const [a, b] = files.map(heapGroups);
  const total = (m: Map<string, Group>): Group =>
    [...m.values()].reduce((t, g) => ({ count: t.count + g.count, size: t.size + g.size }), { count: 0, size: 0 });
  const kb = (n: number): string => (n / 1024).toFixed(1);
  const ta = total(a);
  const tb = total(b);
  process.stdout.write(
    `objects ${ta.count} → ${tb.count}, self size ${kb(ta.size)} KB → ${kb(tb.size)} KB (${tb.size >= ta.size ? '+' : ''}${kb(tb.size - ta.size)} KB)\n`,
  );
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys]
    .map((k) => {
      const x = a.get(k) ?? { count: 0, size: 0 };
      const y = b.get(k) ?? { count: 0, size: 0 };
      return { k, x, y, d: y.size - x.size };
    })
    .sort((p, q) => Math.abs(q.d) - Math.abs(p.d))
    .slice(0, top);
  process.stdout.write('group | count | self size KB | change KB\n');
  for (const r of rows) {
    process.stdout.write(
      `${r.k} | ${r.x.count} → ${r.y.count} | ${kb(r.x.size)} → ${kb(r.y.size)} | ${r.d >= 0 ? '+' : ''}${kb(r.d)}\n`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
