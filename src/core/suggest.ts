/**
 * "Did you mean …": the known word closest to a mistyped one (a command, an option, a flag), by
 * edit distance with a swap of two neighbouring letters counting as one edit, or by being the only
 * word that starts with it.
 */

/** Edits (insert, delete, replace, swap two neighbours) between two words. */
function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

/** The closest known word, when one is close enough to be what was meant; otherwise undefined. */
function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (w === '') return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  const allowed = w.length <= 3 ? 1 : w.length <= 6 ? 2 : 3;
  if (best !== undefined && bestD <= allowed && bestD < w.length) return best;
  const starts = known.filter((k) => k.toLowerCase().startsWith(w));
  return w.length >= 2 && starts.length === 1 ? starts[0] : undefined;
}

/** ` (did you mean 'perft'?)`, or '' when nothing is close. */
export function didYouMean(word: string, known: readonly string[], prefix = ''): string {
  const c = closest(word, known);
  return c === undefined ? '' : ` (did you mean '${prefix}${c}'?)`;
}
