/**
 * Counts in words for messages: "1 game", "0 games", "2 plies", "every epoch". One helper, so
 * that no message says "1 games" or "every 1 epochs".
 */

/** The word for `n` things: `one` for exactly 1, else `many` (default `one` + "s"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/**
 * `n` and its word: "1 game", "3 games", "1 ply", "2 plies" (`many` where the plural is not `one` + "s").
 * `shown` is the number as written (e.g. with thousands separators), `n` by default.
 */
export function plural(n: number, one: string, many = `${one}s`, shown: string = String(n)): string {
  return `${shown} ${pluralWord(n, one, many)}`;
}

/** "every epoch", "every 5 epochs". */
export function every(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? `every ${one}` : `every ${n} ${many}`;
}
