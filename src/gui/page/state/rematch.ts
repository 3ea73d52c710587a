/**
 * Rematch: the same start (setup or loaded position), edition and time control, with the colours
 * swapped — against Thoth the person takes the other side (and the *You play* setting follows,
 * so New game keeps it); between two players the board turns to the other player. Its button is
 * view/game-card.ts's.
 */
import * as S from './state';
import type { PageState } from './state';
import { newTree } from './tree';

export function rematch(s: PageState, now: number): PageState {
  const t = newTree(s.tree.edition, s.tree.startKfen);
  if (!t.ok) return S.setMessage(s, t.error);
  const edition = s.tree.edition;
  if (s.mode === 'engine') {
    const side = s.humanSide === 0 ? '1' : '0';
    return S.newGame(S.setSettings(s, { edition, side }), t.value, { now });
  }
  const next = S.newGame(S.setSettings(s, { edition }), t.value, { now });
  return { ...next, flipped: !s.flipped };
}
