/**
 * Moves in the game: a person's move (or an analysis move) with its clocks, Thoth's reply (held
 * back while the person's shot is on show, a draw offer answered first), and the premove played
 * right after it.
 */
import { parseMove, legalMoves } from '../../../core/index';
import { clockAfterMove, stopClock, timeLeft } from './clock';
import type { Score } from './evaluation';
import { endGame } from './game-end';
import { atEnd, endPath, endPosition, humanMayMove, isOver, thothAcceptsDraw, viewPosition } from './state-queries';
import type { PageState } from './state-types';
import { addMove, updateNode, type EngineNote, type GameTree, type Path } from './tree';

/** How long the mover's shot stays on the board before Thoth's reply is shown. */
export const SHOT_HOLD_MS = 800;

/** Plays a legal move in the shown position (a person's move, or an analysis move). */
export function playMove(s: PageState, move: number, now: number, note?: EngineNote): PageState {
  const pos = viewPosition(s);
  if (!legalMoves(pos).includes(move)) return s;
  if (s.mode !== 'analysis' && (!atEnd(s) || isOver(s))) return s;
  const mover = pos.side;
  const added = addMove(s.tree, s.path, move, note ? { engine: note } : {});
  let next: PageState = {
    ...s,
    tree: added.tree,
    path: added.path,
    selected: -1,
    preview: null,
    message: '',
    bannerClosed: false,
    cursor: s.cursor,
    holdUntil: 0,
    armed: null,
  };
  if (s.mode === 'analysis') return next;
  // A draw offered by the other side lapses when this side moves on instead.
  if (next.drawOffer && next.drawOffer.by !== mover) next = { ...next, drawOffer: null };
  if (s.mode === 'engine' && mover === s.humanSide) next = { ...next, holdUntil: now + SHOT_HOLD_MS };
  if (next.clock) {
    const clock = clockAfterMove(next.clock, mover, now, isOver(next));
    const clocks: [number, number] = [timeLeft(clock, 0, now), timeLeft(clock, 1, now)];
    next = { ...next, clock, tree: setClocks(next.tree, next.path, clocks) };
  }
  return next;
}

function setClocks(tree: GameTree, path: Path, clocks: [number, number]): GameTree {
  return updateNode(tree, path, (n) => ({ ...n, clocks }));
}

/** Thoth plays this game as `thoth` (its name and level): the record's players. */
export function thothPlays(s: PageState, thoth: string): PageState {
  if (s.mode !== 'engine') return s;
  const players: [string, string] = s.humanSide === 0 ? ['Human', thoth] : [thoth, 'Human'];
  return s.players && s.players[0] === players[0] && s.players[1] === players[1] ? s : { ...s, players };
}

/**
 * Thoth's move arrived for the position at the end of the game. While the person's own shot is
 * still on show it waits (Thoth's clock is stopped meanwhile); a draw the person offered is
 * answered first.
 */
export function engineMoved(s: PageState, text: string, note: EngineNote, now: number): PageState {
  if (s.mode !== 'engine' || isOver(s)) return s;
  const pos = endPosition(s);
  if (pos.side === s.humanSide) return s;
  if (s.drawOffer && s.drawOffer.by === s.humanSide) {
    const score: Score | undefined =
      note.mate !== undefined
        ? { kind: 'mate', value: note.mate }
        : note.scoreCp !== undefined
          ? { kind: 'cp', value: note.scoreCp }
          : undefined;
    if (thothAcceptsDraw(score))
      return endGame(
        { ...s, drawOffer: null },
        { result: '1/2-1/2', text: 'Draw by agreement: Thoth accepted your offer', termination: 'normal' },
        now,
      );
    s = { ...s, drawOffer: null, message: 'Thoth declines the draw.' };
  }
  if (text === '(none)' || text === '0000') return { ...s, thinking: null, message: 'Thoth has no move to make here.' };
  const m = parseMove(pos, text);
  if (!m.ok) return { ...s, thinking: null, message: `Thoth sent an illegal move '${text}': ${m.error.message}` };
  const waiting: PageState = { ...s, thinking: null };
  if (now < s.holdUntil) {
    return {
      ...waiting,
      pendingReply: { move: m.value, note },
      clock: waiting.clock ? stopClock(waiting.clock, now) : null,
    };
  }
  return applyReply({ ...waiting, pendingReply: { move: m.value, note } }, now);
}

/**
 * The hold counts from when the person's shot is on the screen: the page calls this once it has
 * drawn the move (drawing a busy page can take a good part of the hold).
 */
export function holdFrom(s: PageState, now: number): PageState {
  return s.holdUntil > 0 && !s.pendingReply ? { ...s, holdUntil: now + SHOT_HOLD_MS } : s;
}

/** Shows Thoth's held-back move now (the hold is over, or the person skipped it). */
export function showPendingReply(s: PageState, now: number): PageState {
  if (!s.pendingReply) return s.holdUntil > 0 ? { ...s, holdUntil: 0 } : s;
  return applyReply(s, now);
}

function applyReply(s: PageState, now: number): PageState {
  const reply = s.pendingReply;
  if (!reply) return s;
  const followed = atEnd(s);
  const base: PageState = { ...s, pendingReply: null, holdUntil: 0, path: endPath(s) };
  // Thoth's words (a declined draw) stay with its move.
  const next = {
    ...playMove({ ...base, selected: -1, premove: null }, reply.move, now, reply.note),
    message: s.message,
  };
  if (s.premove && followed) return playPremove(next, s.premove, now);
  // Someone looking back through the game stays where they are.
  return followed
    ? { ...next, selected: s.selected >= 0 && humanMayMove(next) ? s.selected : -1 }
    : { ...next, path: s.path };
}

/** The premove, right after Thoth's move: played at once when legal, else dropped with a word. */
function playPremove(s: PageState, text: string, now: number): PageState {
  if (!humanMayMove(s)) return s;
  const m = parseMove(endPosition(s), text);
  if (!m.ok) return { ...s, message: `Your premove ${text} is not legal after Thoth's move: it was dropped.` };
  return playMove(s, m.value, now);
}
