/**
 * A move's marks while Thoth's review of the main line is on: the judgements are the review's, so
 * that a record's old judgements (a link's, an import's, an earlier review's, a person's) are not
 * shown or written beside the review's, and the review's summary counts the marks that are shown.
 * A move the review judged ($6 ?!, $2 ?, $4 ??) shows that mark alone among the move marks; on a
 * move it found no mistake in, the record's ?, ?? and ?! are hidden and its !, !!, !? stay. Other
 * NAGs (the position signs after a move, =, ±, …) stay on every move. The notes (move-notes.ts) let a
 * person set only the marks that would be shown.
 */

/** The NAGs a review gives: $2 ?, $4 ??, $6 ?!. */
const JUDGEMENTS: ReadonlySet<number> = new Set([2, 4, 6]);

/** A judgement a review may give (?, ??, ?!). */
export const isJudgement = (nag: number): boolean => JUDGEMENTS.has(nag);
/** A move mark, $1 to $6 (! ? !! ?? !? ?!): a move has one. */
export const isMoveMark = (nag: number): boolean => nag >= 1 && nag <= 6;

/**
 * The NAGs of a main-line move: its own, and when a review is on (`reviewed`), the review's
 * judgement `review` of it (if any) in place of its own move marks, else its own less the
 * judgements. Undefined for none.
 */
export function shownNags(
  own: readonly number[] | undefined,
  reviewed: boolean,
  review?: number,
): number[] | undefined {
  if (!reviewed) return own && own.length > 0 ? [...own] : undefined;
  const kept = (own ?? []).filter((n) => (review !== undefined ? !isMoveMark(n) : !isJudgement(n)));
  if (review !== undefined) kept.unshift(review);
  return kept.length > 0 ? kept : undefined;
}
