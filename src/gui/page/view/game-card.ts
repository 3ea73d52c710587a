/**
 * The game's controls and words: the toolbar (navigation, rotation, take-back, resign, draws, the
 * stack button), the banner at the end of a game (and its *Rematch* button, made here in the result
 * strip beside *New game*), a draw offered between two players, and the hint under the board.
 */
import { ANUBIS, PHARAOH, PYRAMID, SCARAB, SPHINX, STACK, kindOf, squareName } from '../../../core/index';
import { aimedOwnLoss, aimedShot } from '../state/board-input';
import type { Dom } from './dom';
import { reviewAdvice } from '../state/gamereview';
import {
  atEnd,
  colorNames,
  drawClaim,
  endPosition,
  gameLength,
  gameResult,
  humanMayMove,
  isOver,
  viewPosition,
} from '../state/state-queries';
import { mainlineMoveCount, moveLabel } from './move-list';
import { premovePosition } from '../state/premove';
import { isStack } from '../state/selection';
import type { PageState } from '../state/state-types';
import { childrenAt, nodeAt } from '../state/tree';

export function renderToolbar(dom: Dom, s: PageState, rot: { cw: boolean; ccw: boolean }): void {
  const start = s.path.length === 0;
  const previewing = s.preview !== null;
  dom.navFirst.disabled = start && !previewing;
  dom.navPrev.disabled = start && !previewing;
  const more = childrenAt(s.tree, s.path).length > 0;
  dom.navNext.disabled = !more && !previewing;
  dom.navLast.disabled = !more && !previewing;
  dom.rotCw.disabled = !rot.cw;
  dom.rotCcw.disabled = !rot.ccw;
  const over = isOver(s);
  const playing = s.mode !== 'analysis';
  dom.takeBack.hidden = !playing;
  dom.takeBack.disabled = gameLength(s) === 0 || over;
  dom.takeBack.title = over ? 'The game is over: no take-backs' : 'Take back (T)';
  const pos = endPosition(s);
  const mine = s.mode === 'humans' || pos.side === s.humanSide;
  dom.resign.disabled = over;
  dom.draw.disabled = over || s.drawOffer !== null;
  dom.draw.textContent = s.drawOffer && s.mode === 'engine' ? '½ Offered' : '½ Draw';
  const claim = playing && !over && mine ? drawClaim(pos) : null;
  dom.claim.hidden = !claim;
  dom.claim.title = claim ? `Claim a draw: ${claim.text}` : '';
  for (const b of [dom.draw, dom.resign]) b.hidden = !playing;
  const vpos = viewPosition(s);
  const showStack = s.selected >= 0 && isStack(vpos, s.selected);
  dom.stack.hidden = !showStack;
  dom.stack.textContent = s.stackTop ? 'Top obelisk only' : 'Whole stack';
  dom.stack.setAttribute('aria-pressed', String(s.stackTop));
}
export function renderBanner(dom: Dom, s: PageState): void {
  const r = gameResult(s);
  const show = r !== null && atEnd(s) && !s.bannerClosed && !s.preview && s.mode !== 'analysis' && !s.editor;
  dom.banner.hidden = !show;
  if (!show || !r) return;
  const names = colorNames(s);
  const winner: number = r.result === '1-0' ? 0 : r.result === '0-1' ? 1 : -1;
  let title = winner >= 0 ? `${names[winner]} wins` : 'Draw';
  let text = r.text;
  const last = nodeAt(s.tree, s.path)?.ply;
  if (!s.ending && winner >= 0 && last && last.killedSq >= 0 && kindOf(last.killedPiece) === PHARAOH) {
    const loser = winner ^ 1;
    text =
      last.side === loser
        ? `The ${names[loser]} Pharaoh was hit by its own laser (${last.text}).`
        : `${names[winner]}'s laser hit the ${names[loser]} Pharaoh on ${squareName(last.killedSq)} (${last.text}).`;
  }
  if (s.mode === 'engine' && winner >= 0) title += winner === s.humanSide ? ' · you won!' : ' · Thoth won';
  dom.banner.dataset.result = r.result;
  dom.banner.dataset.winner = winner >= 0 ? names[winner] : 'draw';
  dom.bannerTitle.textContent = title;
  dom.bannerText.textContent = text;
}

/** A draw offered between two players: the other one answers. */
export function renderOffer(dom: Dom, s: PageState): void {
  const show = s.mode === 'humans' && s.drawOffer !== null && !isOver(s);
  dom.offer.hidden = !show;
  if (show && s.drawOffer) {
    const names = colorNames(s);
    dom.offerText.textContent = `${names[s.drawOffer.by]} offers a draw. ${names[s.drawOffer.by ^ 1]}:`;
  }
}
/** `touch`: the page is on a touch screen (the hint says tap, not click or press a key). */
export function renderHint(dom: Dom, s: PageState, engineReady: boolean, touch = false): void {
  const pos = viewPosition(s);
  const names = colorNames(s);
  let t = '';
  dom.hint.classList.toggle('error', s.message.startsWith('Cannot '));
  const advice = s.mode === 'analysis' && !s.preview ? reviewAdvice(s) : null;
  if (s.message) t = s.message;
  else if (s.editor)
    t = 'Setting up: a click places the chosen piece (again: turns it); drag a piece off the board to remove it.';
  else if (advice) t = advice.text;
  else if (s.preview) t = 'Previewing an engine line: ‹ › step through it, Esc returns to the game.';
  else if (s.pendingReply) t = `Your shot… (${touch ? 'tap' : 'click or press a key'} to see Thoth’s reply)`;
  else if (isOver(s) && atEnd(s)) t = gameResult(s)?.text ?? '';
  else if (!atEnd(s) && s.mode !== 'analysis') {
    const l = moveLabel(s.tree, s.path);
    const total = mainlineMoveCount(s.tree);
    t = l
      ? `You are looking at move ${l.number} (${names[l.side]}: ${l.text}) of ${total}: press End (or ») to return to the game.`
      : `You are looking at the start: press End (or ») to return to the game.`;
  } else if (s.premove && premovePosition(s))
    t = `Premove ${s.premove}: played as soon as Thoth has moved (Esc or a right-click cancels it).`;
  else if (s.mode === 'engine' && pos.side !== s.humanSide)
    t = engineReady ? 'Thoth is thinking…' : 'Thoth is not available here: the game waits for it.';
  else if (s.mode === 'engine' && !s.engineAvailable) t = 'Thoth is not available here: your moves wait until it is.';
  else if (s.selected >= 0 && (aimedOwnLoss(s) || (s.armed ?? null) !== null)) {
    const loss = aimedOwnLoss(s);
    const shot = aimedShot(s);
    const warn =
      loss === 'pharaoh'
        ? `This shot hits your own Pharaoh: you would lose. `
        : loss === 'piece' && shot
          ? `This shot removes your own piece on ${squareName(shot.killedSq)}. `
          : '';
    t =
      `${warn}${(s.armed ?? null) !== null && shot ? `Tap again to play ${shot.text}, or pick another move.` : ''}`.trim();
  } else if (s.selected >= 0) {
    const k = kindOf(pos.board[s.selected]);
    const word =
      k === SPHINX
        ? 'turn the Sphinx'
        : k === PYRAMID || k === ANUBIS || k === SCARAB
          ? 'pick a square or rotate'
          : 'pick a square';
    t = `${squareName(s.selected)} selected: ${word}.${k === STACK ? ' U switches between the whole stack and its top obelisk.' : ''}`;
  } else if (humanMayMove(s)) t = `${names[pos.side]} to move: pick a piece.`;
  else if (s.mode === 'analysis') t = 'The game is over in this position.';
  if (dom.hint.textContent !== t) dom.hint.textContent = t;
}

/** The *Rematch* button (state/rematch.ts), made in the result strip beside *New game*. */
export function addRematchButton(dom: Dom): HTMLButtonElement {
  const b = document.createElement('button');
  b.id = 'banner-rematch';
  b.type = 'button';
  b.textContent = 'Rematch';
  b.title = 'The same start and time control, colours swapped';
  dom.bannerNew.after(b);
  return b;
}
