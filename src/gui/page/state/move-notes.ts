/**
 * A person's notes on the shown move, as lichess takes them: a comment (its words), the move's
 * mark (! ? !! ?? !? ?!) and a sign for the position after it (= ∞ += =+ ± ∓ +− −+). The words go
 * into the move's comment beside its drawings (`[%cal]`/`[%csl]`: drawings.ts) and the NAGs into
 * its NAGs, so the record the page writes (record-io.ts) keeps them and an import brings them back.
 * Open where drawings by picks are (drawings.ts notesOpen): in Analysis and on a game that is over.
 *
 * While Thoth's review of the main line is on, the judgements of its moves are the review's
 * (marks.ts): a move it judged keeps its mark, and on a move it found no mistake in ?, ?? and ?!
 * are its alone; the person's !, !!, !? on such a move and the position signs stay theirs.
 */
import { commentDrawings, drawingsText } from '../../../core/index';
import { commentWords, notesOpen } from './drawings';
import { ANALYSED_NOTE } from './game-start';
import { currentReview, reviewNags } from './gamereview';
import { isJudgement, isMoveMark, shownNags } from './marks';
import type { PageState } from './state-types';
import { isMainline, nodeAt, pathExists, updateNode, type Path } from './tree';

/** The move marks, in lichess's order: the NAG and its glyph. */
export const MOVE_MARKS: readonly (readonly [number, string])[] = [
  [3, '!!'],
  [1, '!'],
  [5, '!?'],
  [6, '?!'],
  [2, '?'],
  [4, '??'],
];

/**
 * The position signs (after the move), the NAG and its glyph, as lichess offers them; the slight
 * edges written `+=` and `=+`, as many records write them (fonts often lack ⩲ and ⩱).
 */
export const POSITION_SIGNS: readonly (readonly [number, string])[] = [
  [10, '='],
  [13, '∞'],
  [14, '+='],
  [15, '=+'],
  [16, '±'],
  [17, '∓'],
  [18, '+−'],
  [19, '−+'],
];

const NAG_GLYPHS = new Map<number, string>([...MOVE_MARKS, ...POSITION_SIGNS]);
const SIGNS: ReadonlySet<number> = new Set(POSITION_SIGNS.map(([n]) => n));

/** A NAG as the move list shows it (`$22` for one without a glyph here). */
export const nagGlyph = (nag: number): string => NAG_GLYPHS.get(nag) ?? `$${nag}`;

/** The words of a comment as the comment box edits them: without its drawings and the analysis note. */
export function noteWords(comment: string | undefined): string {
  return commentWords((comment ?? '').split(ANALYSED_NOTE).join(' '));
}

/**
 * The comment of the move at `path` set to `text` (the box's words): its drawings and the note
 * that analysis was opened during the game are kept; `}` goes (a record's comment cannot hold it)
 * and white space is single, as the record writes it. Empty words clear the comment's words.
 */
export function setComment(s: PageState, path: Path, text: string): PageState {
  if (!notesOpen({ ...s, path }) || !pathExists(s.tree, path)) return s;
  const old = nodeAt(s.tree, path)?.comment;
  const words = text.replace(/}/g, '').replace(/\s+/g, ' ').trim();
  const note = (old ?? '').includes(ANALYSED_NOTE) ? ANALYSED_NOTE : '';
  const drawn = drawingsText(commentDrawings(old ?? ''));
  const comment = [words, note, drawn].filter((x) => x !== '').join(' ') || undefined;
  if (comment === old) return s;
  return { ...s, tree: updateNode(s.tree, path, (n) => ({ ...n, comment })), message: '' };
}

/**
 * Why `nag` may not be set on the shown move now (a review holds the main line's judgements), or
 * null when it may.
 */
export function nagLocked(s: PageState, nag: number): string | null {
  if (!isMoveMark(nag) || !isMainline(s.path) || s.path.length === 0 || !currentReview(s)) return null;
  const judged = reviewNags(s).get(s.path.length - 1);
  if (judged !== undefined) return `Thoth’s review judged this move ${nagGlyph(judged)}: its mark is the review’s.`;
  if (isJudgement(nag)) return 'Thoth’s review found no mistake in this move: ?, ?? and ?! are the review’s.';
  return null;
}

/**
 * Toggles `nag` on the shown move: a move has one mark and one position sign, so another of the
 * same kind is replaced; the same again takes it off. Other NAGs (from a record) stay.
 */
export function toggleNag(s: PageState, nag: number): PageState {
  if (!notesOpen(s) || !NAG_GLYPHS.has(nag)) return s;
  const locked = nagLocked(s, nag);
  if (locked) return { ...s, message: locked };
  const node = nodeAt(s.tree, s.path);
  if (!node) return s;
  const own = node.nags ?? [];
  const sameKind = (n: number): boolean => (isMoveMark(nag) ? isMoveMark(n) : SIGNS.has(n));
  const rest = own.filter((n) => !sameKind(n));
  const next = own.includes(nag) ? rest : [...rest, nag];
  const nags = [
    ...next.filter(isMoveMark),
    ...next.filter((n) => SIGNS.has(n)),
    ...next.filter((n) => !isMoveMark(n) && !SIGNS.has(n)),
  ];
  return {
    ...s,
    tree: updateNode(s.tree, s.path, (n) => ({ ...n, nags: nags.length > 0 ? nags : undefined })),
    message: '',
  };
}

/** The NAGs of the shown move as the notes' buttons show them pressed (as the move list: marks.ts). */
export function shownMoveNags(s: PageState): number[] {
  const node = nodeAt(s.tree, s.path);
  if (!node) return [];
  const reviewed = isMainline(s.path) && currentReview(s) !== null;
  return shownNags(node.nags, reviewed, reviewed ? reviewNags(s).get(s.path.length - 1) : undefined) ?? [];
}
