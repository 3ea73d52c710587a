/** Counts in words: one helper for every message (no "1 games", no "every 1 epochs"). */
import { describe, expect, it } from 'vitest';
import { every, plural, pluralWord } from '../../src/core/plural';
import { gameStatus, parseKfen, setupKfen } from '../../src/core/index';

describe('plural', () => {
  it('says one thing in the singular, none and many in the plural', () => {
    expect(plural(1, 'game')).toBe('1 game');
    expect(plural(0, 'game')).toBe('0 games');
    expect(plural(2, 'ply', 'plies')).toBe('2 plies');
    expect(plural(1, 'ply', 'plies')).toBe('1 ply');
    expect(plural(1200, 'position', 'positions', '1,200')).toBe('1,200 positions');
    expect(pluralWord(1, 'chunk')).toBe('chunk');
    expect(every(1, 'epoch')).toBe('every epoch');
    expect(every(3, 'epoch')).toBe('every 3 epochs');
  });
});

describe('messages that count', () => {
  it('a draw after one ply without a removal says "1 ply"', () => {
    const r = parseKfen(setupKfen('khet2', 'classic')!.replace(/ 0 1$/, ' 1 1'), 'khet2');
    if (!r.ok) throw new Error(r.error.message);
    expect(gameStatus(r.value, { noRemovalLimit: 1 }).text).toBe('Draw: no piece removed in 1 ply');
  });
});
