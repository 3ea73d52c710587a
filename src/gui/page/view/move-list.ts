/**
 * The move list beside the board: the main line numbered as a record numbers it, the comments
 * under their moves, its variations inline, the marks of a review, the result, and the current
 * move kept in view.
 */
import { PHARAOH, kindOf, parseKfen } from '../../../core/index';
import type { Dom } from './dom';
import { currentReview, reviewNags } from '../state/gamereview';
import { atEnd, gameResult } from '../state/state-queries';
import { isMoveMark, shownNags } from '../state/marks';
import { POSITION_SIGNS, nagGlyph } from '../state/move-notes';
import { escapeHtml, setHtml } from './panel-html';
import type { PageState } from '../state/state-types';
import { commentWords } from '../state/drawings';
import {
  childrenAt,
  isMainline,
  mainlineLength,
  nodeAt,
  pathKey,
  samePath,
  type GameTree,
  type MoveNode,
  type Path,
} from '../state/tree';

export interface MoveLabel {
  /** The move number as the list shows it. */
  number: number;
  side: number;
  /** `15.` before a first-player move, `15…` before a second-player move. */
  prefix: string;
  text: string;
}
export /** The number and side of the move that leads to `path`. */
function moveLabel(tree: GameTree, path: Path): MoveLabel | null {
  const n = nodeAt(tree, path);
  if (!n) return null;
  const start = parseKfen(tree.startKfen, tree.edition);
  const side0 = start.ok ? start.value.side : 0;
  const num0 = start.ok ? start.value.moveNumber : 1;
  const p = path.length - 1;
  const side = (side0 + p) % 2;
  const number = num0 + Math.floor((p + side0) / 2);
  return { number, side, prefix: side === 0 ? `${number}.` : `${number}…`, text: n.ply.text };
}
export /** How many moves (numbered as the list numbers them) the main line holds. */
function mainlineMoveCount(tree: GameTree): number {
  const len = mainlineLength(tree);
  if (len === 0) return 0;
  return moveLabel(tree, new Array<number>(len).fill(0))?.number ?? 0;
}

/** A move's button; `nags` replaces the move's own marks (a main-line move under a review: marks.ts). */
function moveButton(tree: GameTree, path: Path, current: Path, nags?: readonly number[]): string {
  const n = nodeAt(tree, path) as MoveNode;
  const p = n.ply;
  const kill = p.killedSq >= 0 ? (kindOf(p.killedPiece) === PHARAOH ? '#' : '×') : '';
  const all = nags ?? n.nags ?? [];
  const mark = all.find(isMoveMark);
  const sign = all.find((x) => POSITION_SIGNS.some(([k]) => k === x));
  const glyph = mark === undefined ? '' : nagGlyph(mark);
  const tone = glyph.startsWith('!') ? 'good' : glyph === '?!' || glyph === '!?' ? 'dubious' : 'bad';
  const nag = `${glyph ? `<span class="nag nag-${tone}">${glyph}</span>` : ''}${sign === undefined ? '' : `<span class="nag nag-sign">${nagGlyph(sign)}</span>`}`;
  const main = isMainline(path);
  const cls = `mv${samePath(path, current) ? ' current' : ''}${main ? '' : ' var'}`;
  const ply = main ? ` data-ply="${path.length}"` : '';
  const title = `${p.text}${p.killedSq >= 0 ? ': the laser removes a piece' : ''}${commentWords(n.comment) ? ` — ${commentWords(n.comment)}` : ''}`;
  // one tab stop for the whole list (a roving tabindex): the current move; ← → step from there
  const tab = samePath(path, current) || (current.length === 0 && path.length === 1 && path[0] === 0) ? '0' : '-1';
  return `<button class="${cls}" data-path="${pathKey(path)}"${ply} tabindex="${tab}" title="${escapeHtml(title)}">${p.text}${kill ? `<span class="kill">${kill}</span>` : ''}${nag}</button>`;
}

/** A variation (and the ones inside it) as inline text: `(12… d7d6 13. c1c2 (13. j1- …))`. */
function variationHtml(tree: GameTree, first: Path, current: Path): string {
  const parts: string[] = [];
  let path = first;
  let firstMove = true;
  for (;;) {
    const label = moveLabel(tree, path);
    if (!label) break;
    if (label.side === 0 || firstMove) parts.push(`<span class="vnum">${label.prefix}</span>`);
    parts.push(moveButton(tree, path, current));
    const comment = commentWords(nodeAt(tree, path)?.comment);
    if (comment) parts.push(`<span class="comment">${escapeHtml(comment)}</span>`);
    firstMove = false;
    const kids = childrenAt(tree, path);
    if (kids.length === 0) break;
    for (let i = 1; i < kids.length; i++)
      parts.push(`<span class="var-nest">(${variationHtml(tree, [...path, i], current)})</span>`);
    if (kids.length > 1) firstMove = true; // the number is repeated after a nested variation
    path = [...path, 0];
  }
  return parts.join(' ');
}

export function renderMoves(dom: Dom, s: PageState): void {
  const tree = s.tree;
  const box = dom.moves;
  const parts: string[] = [];
  const len = mainlineLength(tree);
  const reviewed = currentReview(s) !== null;
  const judged = reviewNags(s);
  let pendingNum = '';
  for (let i = 0; i < len; i++) {
    const path = new Array<number>(i + 1).fill(0);
    const label = moveLabel(tree, path) as MoveLabel;
    if (label.side === 0) {
      parts.push(`<span class="num">${label.number}.</span>`);
      pendingNum = '';
    } else if (i === 0 || pendingNum) {
      parts.push(`<span class="num">${label.number}.</span><span class="mv empty">…</span>`);
      pendingNum = '';
    }
    const node = nodeAt(tree, path) as MoveNode;
    parts.push(moveButton(tree, path, s.path, shownNags(node.nags, reviewed, judged.get(i)) ?? []));
    const siblings = childrenAt(tree, path.slice(0, -1));
    const alternatives = siblings.length > 1;
    // A comment (a coach's words, an imported record's) shows under its move, as lichess shows it:
    // on a phone there is no tooltip to hover. The row breaks there, as for variations.
    const said = commentWords(node.comment);
    if (alternatives || said) {
      if (label.side === 0) parts.push('<span></span>');
      if (said) parts.push(`<div class="comment">${escapeHtml(said)}</div>`);
      if (alternatives) {
        const vars = siblings
          .slice(1)
          .map(
            (_, k) => `<div class="variation">(${variationHtml(tree, [...path.slice(0, -1), k + 1], s.path)})</div>`,
          );
        parts.push(`<div class="variations">${vars.join('')}</div>`);
      }
      if (label.side === 0) pendingNum = 'x';
    } else if (label.side === 0 && i === len - 1) {
      parts.push('<span></span>');
    }
  }
  const r = gameResult(s);
  if (r) parts.push(`<div class="result">${r.result} · ${escapeHtml(r.text)}</div>`);
  if (len === 0 && !r) parts.push('<div class="muted empty-list">No moves yet.</div>');
  // the list is one tab stop: a move that had the focus hands it on to the new current move
  const hadFocus = box.contains(document.activeElement) && document.activeElement !== box;
  const changed = setHtml(box, parts.join(''));
  if (hadFocus && changed) box.querySelector<HTMLElement>('.mv[tabindex="0"]')?.focus({ preventScroll: true });
  box.dataset.count = String(len);
  // At the end of a finished game the result under the last move comes into view too.
  if (r && atEnd(s)) {
    if (changed) box.scrollTop = box.scrollHeight;
  } else scrollToCurrent(box);
}

/** Keeps the current move in view inside the list (not the page); the start scrolls to the top. */
function scrollToCurrent(box: HTMLElement): void {
  const cur = box.querySelector<HTMLElement>('.current');
  if (!cur) {
    box.scrollTop = 0;
    return;
  }
  const top = cur.offsetTop - box.offsetTop;
  if (top < box.scrollTop) box.scrollTop = Math.max(0, top - 4);
  else if (top + cur.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = top + cur.offsetHeight - box.clientHeight + 4;
}
