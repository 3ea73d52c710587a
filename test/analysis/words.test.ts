/** The plain-words side of `thoth analyse`: move descriptions, score texts, record loading. */
import { describe, expect, it } from 'vitest';
import { EDITIONS, SETUPS, parseKfen, parseMove, toKfen, type EditionId, type Position } from '../../src/core/index';
import { RecordError, loadGame } from '../../src/analysis/annotate-game';
import { comparable, moveInWords, firstPlayerView, scoreSentence, scoreText } from '../../src/analysis/words';
import { renderBoard } from '../../src/analysis/diagram';
import { MATE, mateMoves } from '../../src/core/score';

function position(kfen: string, edition: EditionId = 'khet2'): Position {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function say(pos: Position, text: string): string {
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  const before = toKfen(pos);
  const s = moveInWords(pos, m.value, text).sentence;
  expect(toKfen(pos)).toBe(before); // left unchanged
  return s;
}

describe('moveInWords', () => {
  const classic = position(SETUPS.khet2.classic!);

  it('says what steps, turns and swaps do and what the shot removes', () => {
    expect(say(classic, 'f4g5')).toBe('Silver steps the Scarab from f4 to g5; the shot removes nothing');
    expect(say(classic, 'j1-')).toBe(
      "Silver turns the Sphinx on j1 to fire west; the shot removes Silver's own Anubis on f1",
    );
    expect(say(classic, 'c5+')).toBe(
      'Silver turns the Pyramid on c5 clockwise (mirror SW → NW); the shot removes nothing',
    );
    expect(say(classic, 'd1-')).toBe(
      'Silver turns the Anubis on d1 counter-clockwise (shield N → W); the shot removes nothing',
    );
    expect(say(classic, 'e4+')).toBe('Silver turns the Scarab on e4 (/ → \\); the shot removes nothing');
    const pos = classic.clone();
    for (const t of ['f4g5', 'c7c6', 'c5+', 'a4-']) {
      const m = parseMove(pos, t);
      if (!m.ok) throw new Error(t);
      pos.make(m.value);
    }
    expect(say(pos, 'g5h5')).toBe(
      'Silver swaps the Scarab on g5 with the Red Pyramid on h5; the shot removes the Red Pyramid on g3',
    );
  });

  it('names own losses and Pharaoh hits', () => {
    const own = position('xv3k5/10/10/9P^/10/10/10/4K4X^ s 0 1');
    expect(say(own, 'e1d1')).toBe(
      "Silver steps the Pharaoh from e1 to d1; the shot removes Silver's own Pyramid on j5",
    );
    const mate = position('xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1');
    expect(say(mate, 'j8+')).toBe(
      'Silver turns the Pyramid on j8 clockwise (mirror SE → SW); the shot hits the Red Pharaoh on f8: Silver wins',
    );
  });

  it('names the turn of a piece that its own shot then removes', () => {
    // Silver's beam runs up file j into the back of the Pyramid on j5; turned, it faces the beam
    // with another side and is still removed: the turn is said as it was made
    const pos = position('xv3k5/10/10/9P^/10/10/10/4K4X^ s 0 1');
    expect(say(pos, 'j5-')).toBe(
      "Silver turns the Pyramid on j5 counter-clockwise (mirror NE → NW); the shot removes Silver's own Pyramid on j5",
    );
  });

  it('uses the older editions\u2019 names: Djeds, Obelisks and stacks', () => {
    const k1 = position(SETUPS.khet1.classic!, 'khet1');
    expect(say(k1, 'd1d2')).toBe('Silver steps the Obelisk stack from d1 to d2; the shot removes nothing');
    expect(say(k1, 'd1d2u')).toBe('Silver moves the top Obelisk of the stack on d1 to d2; the shot removes nothing');
    expect(say(k1, 'e4+')).toMatch(/^Silver turns the Djed on e4 /);
    const dx = position(SETUPS.deflexion.classic!, 'deflexion');
    expect(say(dx, 'f4g5')).toBe('Gold steps the Djed from f4 to g5; the shot removes nothing');
  });
});

describe('scores in words', () => {
  const ed = EDITIONS.khet2;
  it('gives texts and sentences from the first player\u2019s point of view', () => {
    expect(scoreText(35)).toBe('+0.35');
    expect(scoreText(-120)).toBe('-1.20');
    expect(scoreText(0)).toBe('0.00');
    expect(scoreText(MATE - 1)).toBe('+M1');
    expect(scoreText(MATE - 3)).toBe('+M2');
    expect(scoreText(-(MATE - 4))).toBe('-M2');
    expect(mateMoves(-(MATE - 2))).toBe(-1);
    expect(firstPlayerView(50, 1)).toBe(-50);
    expect(scoreSentence(10, ed)).toBe('about equal');
    expect(scoreSentence(35, ed)).toBe('Silver is slightly better');
    expect(scoreSentence(-150, ed)).toBe('Red is better');
    expect(scoreSentence(300, ed)).toBe('Silver is clearly better');
    expect(scoreSentence(-800, ed)).toBe('Red is winning');
    expect(scoreSentence(MATE - 3, ed)).toBe('Silver wins: hits the Red Pharaoh in 2 moves');
    expect(scoreSentence(-(MATE - 2), ed)).toBe('Red wins: hits the Silver Pharaoh in 1 move');
    expect(scoreSentence(-(MATE - 2), EDITIONS.deflexion)).toBe('Silver wins: hits the Gold Pharaoh in 1 move');
  });

  it('compares mates and evaluations for losses and marks', () => {
    expect(comparable(MATE - 1)).toBeGreaterThan(comparable(MATE - 3));
    expect(comparable(MATE - 3)).toBeGreaterThan(5000);
    expect(comparable(-(MATE - 2))).toBeLessThan(-5000);
  });
});

describe('renderBoard', () => {
  it('draws coordinates, pieces, side to move and KFEN', () => {
    const lines = renderBoard(position(SETUPS.khet2.classic!));
    expect(lines[0].trim().split(/\s+/)).toEqual([...'abcdefghij']);
    expect(lines[1].trim().split(/\s+/)).toEqual(['8', 'xv', '.', '.', '.', 'av', 'k', 'av', 'p>', '.', '.', '8']);
    expect(lines[8].trim().split(/\s+/)).toEqual(['1', '.', '.', 'P<', 'A^', 'K', 'A^', '.', '.', '.', 'X^', '1']);
    expect(lines).toContain(`KFEN: ${SETUPS.khet2.classic}`);
    expect(lines.some((l) => l.includes('Silver to move'))).toBe(true);
  });
});

describe('loadGame', () => {
  it('reads tags, the start position and the moves', () => {
    const g = loadGame('[Variant "khet1"]\n[Result "1/2-1/2"]\n\n1. d1d2 {+0.10/3} e8e7 1/2-1/2\n');
    expect(g.edition).toBe('khet1');
    expect(g.texts).toEqual(['d1d2', 'e8e7']);
    expect(g.record.result).toBe('1/2-1/2');
    expect(toKfen(g.start)).toBe(SETUPS.khet1.classic);
  });

  it('uses the command line variant only when the record names none', () => {
    expect(loadGame('1. f4g5 *\n', 1, 'deflexion').edition).toBe('deflexion');
    expect(() => loadGame('[Variant "khet2"]\n1. f4g5 *\n', 1, 'khet1')).toThrow(RecordError);
  });

  it('picks a game by number and refuses moves after the end', () => {
    const two = '[Round "1"]\n\n1. f4g5 *\n\n[Round "2"]\n\n1. c1d2 *\n';
    expect(loadGame(two, 2).texts).toEqual(['c1d2']);
    expect(loadGame(two, 2).gamesInFile).toBe(2);
    expect(() => loadGame(two, 3)).toThrow(/holds 2 games, not 3/);
    const over = '[KFEN "xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1"]\n\n1. j8+ f8f7 1-0\n';
    expect(() => loadGame(over)).toThrow(/move 2 \(f8f7\): the game was already over/);
  });

  it('picks a game by its Round tag, whatever its place in the file', () => {
    // A match with concurrency writes games as they end: round 3.2 before 3.1.
    const file = '[Round "3.2"]\n\n1. f4g5 *\n\n[Round "3.1"]\n\n1. c1d2 *\n\n[Round "3.1"]\n\n1. a4a3 *\n';
    const g = loadGame(file, { round: '3.2' });
    expect(g.texts).toEqual(['f4g5']);
    expect(g.index).toBe(1);
    expect(loadGame(file, 2).index).toBe(2);
    expect(() => loadGame(file, { round: '4' })).toThrow(/no game has Round "4"/);
    expect(() => loadGame(file, { round: '3.1' })).toThrow(/2 games have Round "3.1" \(games 2, 3/);
  });
});
