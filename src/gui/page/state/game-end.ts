/**
 * How a game ends, or goes back: a clock that ran out, a take-back, resignation, draws offered,
 * accepted, declined and claimed.
 */
import { flagged, newClock, restoreClock, stopClock } from './clock';
import { colorNames, drawClaim, endPath, endPosition, gameLength, isOver } from './state-queries';
import type { Ending, PageState } from './state-types';
import { deleteNode, nodeAt, positionAt } from './tree';

/** The game ends (`ending`): the clocks stop, and the page shows the end of the game. */
export function endGame(s: PageState, ending: Ending, now: number): PageState {
  return {
    ...s,
    ending,
    clock: s.clock ? stopClock(s.clock, now) : null,
    pendingReply: null,
    holdUntil: 0,
    thinking: null,
    premove: null,
    selected: -1,
    drawOffer: null,
    bannerClosed: false,
    path: endPath(s),
    preview: null,
  };
}

/** A clock that ran out ends the game. */
export function checkFlag(s: PageState, now: number): PageState {
  if (!s.clock || s.mode === 'analysis' || isOver(s)) return s;
  const loser = flagged(s.clock, now);
  if (loser < 0) return s;
  const names = colorNames(s);
  const ended = endGame(
    s,
    {
      result: loser === 0 ? '0-1' : '1-0',
      text: `${names[loser ^ 1]} wins on time: ${names[loser]}'s clock ran out`,
      termination: 'time forfeit',
    },
    now,
  );
  const remaining: [number, number] = [ended.clock!.remaining[0], ended.clock!.remaining[1]];
  remaining[loser] = 0;
  return { ...ended, clock: { ...ended.clock!, remaining } };
}

/**
 * Takes back the last move — against Thoth, back to the person's turn. Refused once the game is
 * over. The clocks return to the times they showed then, so increments cannot be farmed.
 */
export function takeBack(s: PageState, now: number): PageState {
  if (s.mode === 'analysis') return s;
  if (isOver(s)) return { ...s, message: 'The game is over: moves can no longer be taken back.' };
  let len = gameLength(s);
  let tree = s.tree;
  if (s.pendingReply) {
    // Thoth's reply was not shown yet: it goes with the person's move.
    s = { ...s, pendingReply: null };
  }
  if (len === 0) return s;
  let n = 1;
  if (s.mode === 'engine') {
    const lastSide = positionAt(tree, endPath(s).slice(0, len - 1)).side;
    n = lastSide === s.humanSide ? 1 : 2;
    if (len - n < 0 || positionAt(tree, endPath(s).slice(0, len - n)).side !== s.humanSide) n = 1;
  }
  const keep = len - n;
  tree = deleteNode(tree, new Array<number>(keep + 1).fill(0));
  len = keep;
  let clock = s.clock;
  if (clock) {
    const before = len > 0 ? nodeAt(tree, new Array<number>(len).fill(0))?.clocks : undefined;
    const side = positionAt(tree, new Array<number>(len).fill(0)).side;
    clock = len === 0 ? newClock(clock.baseMs, clock.incMs) : restoreClock(clock, before ?? clock.remaining, side, now);
  }
  return {
    ...s,
    tree,
    path: new Array<number>(len).fill(0),
    clock,
    selected: -1,
    holdUntil: 0,
    pendingReply: null,
    thinking: null,
    premove: null,
    drawOffer: null,
    preview: null,
    message: '',
    bannerClosed: false,
  };
}

/** The side to move (two players) or the person (against Thoth) gives up. */
export function resign(s: PageState, now: number): PageState {
  if (s.mode === 'analysis' || isOver(s)) return s;
  const side = s.mode === 'engine' ? s.humanSide : endPosition(s).side;
  const names = colorNames(s);
  return endGame(
    s,
    {
      result: side === 0 ? '0-1' : '1-0',
      text: `${names[side ^ 1]} wins: ${names[side]} resigned`,
      termination: 'normal',
    },
    now,
  );
}

/**
 * Offers a draw: against Thoth it answers with its next move, by its evaluation; between two
 * players the other one accepts or declines (moving on declines).
 */
export function offerDraw(s: PageState): PageState {
  if (s.mode === 'analysis' || isOver(s) || s.drawOffer) return s;
  const by = s.mode === 'engine' ? s.humanSide : endPosition(s).side;
  const message =
    s.mode === 'engine'
      ? 'You offered a draw: Thoth answers with its next move.'
      : `${colorNames(s)[by]} offers a draw.`;
  return { ...s, drawOffer: { by, atPly: gameLength(s) }, message };
}

export function acceptDraw(s: PageState, now: number): PageState {
  if (!s.drawOffer || isOver(s)) return s;
  return endGame(s, { result: '1/2-1/2', text: 'Draw by agreement', termination: 'normal' }, now);
}

export function declineDraw(s: PageState): PageState {
  return s.drawOffer ? { ...s, drawOffer: null, message: 'Draw declined.' } : s;
}

/** Claims the draw a rule gives (a move reaching the third repetition or the no-removal limit). */
export function claimDraw(s: PageState, now: number): PageState {
  if (s.mode === 'analysis' || isOver(s)) return s;
  const pos = endPosition(s);
  if (s.mode === 'engine' && pos.side !== s.humanSide) return s;
  const c = drawClaim(pos);
  if (!c) return { ...s, message: 'No draw can be claimed here.' };
  return endGame(
    s,
    { result: '1/2-1/2', text: `Draw claimed by ${colorNames(s)[pos.side]}: ${c.text}`, termination: 'normal' },
    now,
  );
}
