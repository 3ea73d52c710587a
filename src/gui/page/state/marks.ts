/**
 * A move's marks while Thoth's review of the main line is on: the judgements ($6 ?!, $2 ?, $4 ??)
 * are the review's alone, so that a record's old judgements (a link's, an import's, an earlier
 * review's) are not shown or written beside the new ones, and the review's summary counts the
 * marks that are shown. The record's other marks ($1 !, $3 !!, $5 !?) stay.
 */

/** The NAGs a review gives: $2 ?, $4 ??, $6 ?!. */
const JUDGEMENTS: ReadonlySet<number> = new Set([2, 4, 6]);

/**
 * The NAGs of a main-line move: its own, and when a review is on (`reviewed`), its own less the
 * judgements, then the review's judgement `review` of it (if any). Undefined for none.
 */
export function shownNags(
  own: readonly number[] | undefined,
  reviewed: boolean,
  review?: number,
): number[] | undefined {
  if (!reviewed) return own && own.length > 0 ? [...own] : undefined;
  const kept = (own ?? []).filter((n) => !JUDGEMENTS.has(n));
  if (review !== undefined) kept.unshift(review);
  return kept.length > 0 ? kept : undefined;
}
