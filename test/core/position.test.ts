/** Position: make/unmake, counters, the key, Pharaoh hits, repetition and the game status. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRAW_RULES,
  MAX_MOVES,
  PHARAOH,
  Position,
  SETUPS,
  SIDE_HI,
  SIDE_LO,
  gameStatus,
  keyHex,
  kindOf,
  toKfen,
} from '../../src/core/index';
import { bitboardFault, k2, kfen, load, mv, play, scratchKey, snapshot, sq } from './helpers';

const CLASSIC = SETUPS.khet2.classic!;

describe('make / unmake', () => {
  it('counters: plies since removal and the move number', () => {
    const pos = load(CLASSIC);
    expect([pos.pliesSinceRemoval, pos.moveNumber, pos.side, pos.ply]).toEqual([0, 1, 0, 0]);
    play(pos, 'e1e2');
    expect([pos.pliesSinceRemoval, pos.moveNumber, pos.side, pos.ply]).toEqual([1, 1, 1, 1]);
    play(pos, 'f8f7');
    expect([pos.pliesSinceRemoval, pos.moveNumber, pos.side, pos.ply]).toEqual([2, 2, 0, 2]);
    expect(play(pos, 'j1-')).toBe('f1'); // the removal resets the count
    expect([pos.pliesSinceRemoval, pos.moveNumber, pos.side]).toEqual([0, 2, 1]);
    pos.unmake();
    expect([pos.pliesSinceRemoval, pos.moveNumber, pos.side]).toEqual([2, 2, 0]);
    pos.unmake();
    pos.unmake();
    expect(toKfen(pos)).toBe(CLASSIC);
  });

  it('counters continue from the KFEN, Red to move', () => {
    const pos = load(k2({ e1: 'K', f8: 'k' }, 'r', 37, 12));
    play(pos, 'f8f7');
    expect([pos.pliesSinceRemoval, pos.moveNumber]).toEqual([38, 13]);
    expect(toKfen(pos)).toBe(k2({ e1: 'K', f7: 'k' }, 's', 38, 13));
  });

  it('history of moves and kills', () => {
    const pos = load(CLASSIC);
    const m1 = mv(pos, 'e1e2');
    pos.make(m1);
    const m2 = mv(pos, 'f8f7');
    pos.make(m2);
    const m3 = mv(pos, 'j1-');
    pos.make(m3);
    expect([pos.moveAt(0), pos.moveAt(1), pos.moveAt(2)]).toEqual([m1, m2, m3]);
    expect([pos.killedAt(0), pos.killedAt(1), pos.killedAt(2)]).toEqual([-1, -1, sq('f1')]);
    expect(kindOf(pos.killedPieceAt(2))).toBe(4); // an Anubis
  });

  it('a long game (more plies than the initial history capacity) unmakes back to the start', () => {
    const pos = load(CLASSIC);
    const start = snapshot(pos);
    const cycle = ['e1e2', 'f8f7', 'e2e1', 'f7f8'];
    const keys: Array<[number, number]> = [];
    for (let i = 0; i < 600; i++) {
      keys.push([pos.keyLo, pos.keyHi]);
      expect(play(pos, cycle[i % 4])).toBeNull();
    }
    expect(pos.ply).toBe(600);
    expect(pos.repetitions()).toBe(150);
    expect(pos.moveNumber).toBe(301);
    for (let i = 599; i >= 0; i--) {
      pos.unmake();
      expect([pos.keyLo, pos.keyHi]).toEqual(keys[i]);
    }
    expect(snapshot(pos)).toEqual(start);
  });

  it('a clone is independent and keeps the history', () => {
    const pos = load(CLASSIC);
    play(pos, 'e1e2');
    play(pos, 'f8f7');
    const c = pos.clone();
    expect(snapshot(c)).toEqual(snapshot(pos));
    play(c, 'e2e1');
    expect(pos.board[sq('e2')]).not.toBe(0);
    expect(c.board[sq('e2')]).toBe(0);
    play(c, 'f7f8');
    expect(c.repetitions()).toBe(1);
    c.unmake();
    c.unmake();
    c.unmake();
    c.unmake();
    expect(toKfen(c)).toBe(CLASSIC);
    expect(toKfen(pos)).not.toBe(CLASSIC);
  });

  it('setup() replaces everything and clears the history', () => {
    const pos = load(CLASSIC);
    play(pos, 'e1e2');
    const fresh = load(CLASSIC);
    pos.setup(fresh.board, 0, 0, 1);
    expect(snapshot(pos)).toEqual(snapshot(fresh));
  });
});

describe('the Zobrist key', () => {
  it('includes the side to move', () => {
    const s = load(k2({ e1: 'K', f8: 'k' }, 's'));
    const r = load(k2({ e1: 'K', f8: 'k' }, 'r'));
    expect((s.keyLo ^ r.keyLo) >>> 0).toBe(SIDE_LO >>> 0);
    expect((s.keyHi ^ r.keyHi) >>> 0).toBe(SIDE_HI >>> 0);
  });

  it('does not depend on the counters', () => {
    const a = load(k2({ e1: 'K' }, 's', 0, 1));
    const b = load(k2({ e1: 'K' }, 's', 55, 80));
    expect(keyHex(a.keyLo, a.keyHi)).toBe(keyHex(b.keyLo, b.keyHi));
  });

  it('differs between the setups and after each move of Classic', () => {
    const seen = new Set<string>();
    for (const t of Object.values(SETUPS.khet2)) {
      const p = load(t!);
      seen.add(keyHex(p.keyLo, p.keyHi));
    }
    const pos = load(CLASSIC);
    for (const m of ['e1e2', 'c1+', 'c1-', 'e4+', 'j1-', 'e4d5'] as const) {
      const c = pos.clone();
      c.make(mv(c, m));
      seen.add(keyHex(c.keyLo, c.keyHi));
    }
    expect(seen.size).toBe(Object.values(SETUPS.khet2).length + 6);
  });

  it('computeKey matches the incremental key after a kill of a stack and a Pharaoh hit', () => {
    const pos = load(kfen({ j4: 'Pv', e4: 't', e1: 'K', f8: 'k' }, 's'), 'khet1');
    expect(play(pos, 'e1e2')).toBe('e4');
    expect([pos.keyLo, pos.keyHi]).toEqual(scratchKey(pos));
    const hit = load(k2({ j3: 'Av', j5: 'K', f8: 'k' }));
    expect(play(hit, 'j3i3')).toBe('j5');
    expect([hit.keyLo, hit.keyHi]).toEqual(scratchKey(hit));
    expect(bitboardFault(hit)).toBeNull();
  });
});

describe('Pharaoh hits', () => {
  it("the opponent's Pharaoh: the mover wins", () => {
    // Red may not stand on file j: a Silver pyramid on j4 turns the beam along rank 4 (facing N
    // it would be struck on its back and die instead)
    const pos = load(k2({ j4: 'P^', e4: 'k', e1: 'K' }));
    expect(pos.laserTarget(0)).toBe(sq('j4'));
    const p2 = load(k2({ j4: 'Pv', e4: 'k', e1: 'K', d8: 'p^' }));
    expect(p2.laserTarget(0)).toBe(sq('e4'));
    expect(play(p2, 'e1e2')).toBe('e4');
    expect(p2.winner).toBe(0);
    expect(p2.board[sq('e4')]).toBe(0);
    const st = gameStatus(p2);
    expect(st).toMatchObject({ result: 'win', winner: 0, reason: 'pharaoh' });
    expect(st.text).toBe('Silver wins: the Red Pharaoh was hit');
    p2.unmake();
    expect(p2.winner).toBe(-1);
    expect(kindOf(p2.board[sq('e4')])).toBe(PHARAOH);
  });

  it("the mover's own Pharaoh: the opponent wins, even by the mover's own beam", () => {
    const pos = load(k2({ j3: 'Av', j5: 'K', f8: 'k' }));
    expect(pos.laserTarget(0)).toBe(-1); // the Anubis blocks with its front
    expect(play(pos, 'j3i3')).toBe('j5');
    expect(pos.winner).toBe(1);
    expect(gameStatus(pos)).toMatchObject({ result: 'win', winner: 1, reason: 'pharaoh' });
  });

  it('Deflexion: the names are Gold and Silver', () => {
    const pos = load(kfen({ j3: 'Pv', e3: 'k', e1: 'K' }, 'g'), 'deflexion');
    expect(play(pos, 'e1e2')).toBe('e3');
    expect(gameStatus(pos).text).toBe('Gold wins: the Silver Pharaoh was hit');
  });

  it('a Pharaoh rotation (option on) changes nothing on the board but fires the laser', () => {
    const text = kfen({ j1: 'X<', a8: 'xv', d1: 'pv', e5: 'K', f8: 'k' }, 's');
    const pos = load(text, 'khet2', { pharaohRotation: true });
    const before = Array.from(pos.board);
    expect(play(pos, 'e5+')).toBe('d1');
    const after = Array.from(pos.board);
    after[sq('d1')] = before[sq('d1')];
    expect(after).toEqual(before);
    // a quiet Pharaoh rotation: only the side to move changes in the key
    const quiet = load(k2({ e5: 'K', f8: 'k' }), 'khet2', { pharaohRotation: true });
    const k0 = [quiet.keyLo, quiet.keyHi];
    expect(play(quiet, 'e5-')).toBeNull();
    expect([(quiet.keyLo ^ k0[0]) >>> 0, (quiet.keyHi ^ k0[1]) >>> 0]).toEqual([SIDE_LO >>> 0, SIDE_HI >>> 0]);
  });
});

describe('repetition and the game status', () => {
  it('a position repeated by shuffling back and forth: draw at the third occurrence', () => {
    const pos = load(CLASSIC);
    expect(pos.repetitions()).toBe(0);
    const cycle = ['e1e2', 'f8f7', 'e2e1', 'f7f8'];
    const reps: number[] = [];
    const results: string[] = [];
    for (let i = 0; i < 8; i++) {
      expect(play(pos, cycle[i % 4])).toBeNull();
      reps.push(pos.repetitions());
      results.push(gameStatus(pos).result);
    }
    expect(reps).toEqual([0, 0, 0, 1, 1, 1, 1, 2]);
    expect(results).toEqual(['ongoing', 'ongoing', 'ongoing', 'ongoing', 'ongoing', 'ongoing', 'ongoing', 'draw']);
    expect(gameStatus(pos)).toMatchObject({ result: 'draw', winner: -1, reason: 'repetition' });
    pos.unmake();
    expect(gameStatus(pos).result).toBe('ongoing');
  });

  it("the search's reading: a repetition inside the search draws, one reaching before the root needs the third occurrence", () => {
    const pos = load(CLASSIC);
    const cycle = ['e1e2', 'f8f7', 'e2e1', 'f7f8'];
    const rep: number[] = [];
    for (let i = 0; i < 8; i++) {
      play(pos, cycle[i % 4]);
      rep.push(pos.repetition());
    }
    // the distance back to the one earlier occurrence; negative from the third occurrence on
    expect(rep).toEqual([0, 0, 0, 4, 4, 4, 4, -4]);
    // the last position occurred at plies 0 and 4: a draw at any distance from the root
    expect(pos.drawsByRepetition(1)).toBe(true);
    pos.unmake();
    // its second occurrence (the first 4 plies back): a draw only when that one is inside the
    // search, after its root (4 < ply); met before the root or at the root itself it is searched on
    expect([1, 4, 5, 7].map((ply) => pos.drawsByRepetition(ply))).toEqual([false, false, true, true]);
    // a first occurrence never draws
    for (let i = 0; i < 4; i++) pos.unmake();
    expect(pos.repetition()).toBe(0);
    expect(pos.drawsByRepetition(100)).toBe(false);
  });

  it('Pharaoh rotations (option on) change nothing: the position recurs every two plies', () => {
    const pos = load(k2({ e5: 'K', f4: 'k' }), 'khet2', { pharaohRotation: true });
    const reps: number[] = [];
    for (const m of ['e5+', 'f4-', 'e5-', 'f4+']) {
      expect(play(pos, m)).toBeNull();
      reps.push(pos.repetitions());
    }
    expect(reps).toEqual([0, 1, 1, 2]);
    expect(gameStatus(pos).reason).toBe('repetition');
  });

  it('a Scarab turned twice is the same position (orientation mod 2)', () => {
    const pos = load(k2({ e4: 'S^', d6: 's>', e1: 'K', f8: 'k' }));
    for (let i = 0; i < 4; i++) {
      play(pos, 'e4+');
      play(pos, 'd6+');
    }
    expect(pos.repetitions()).toBe(2);
    expect(gameStatus(pos).reason).toBe('repetition');
  });

  it('the same board with the other side to move is not a repetition', () => {
    // Silver's Pharaoh walks a triangle while Red's shuffles: after five plies the board is the
    // starting board again, but with Red to move
    const pos = load(k2({ e1: 'K', f8: 'k' }));
    const board0 = Array.from(pos.board);
    const seen: number[] = [];
    for (const m of ['e1e2', 'f8f7', 'e2f2', 'f7f8', 'f2e1']) {
      play(pos, m);
      seen.push(pos.repetitions());
    }
    expect(Array.from(pos.board)).toEqual(board0);
    expect(pos.side).toBe(1);
    expect(seen).toEqual([0, 0, 0, 0, 0]);
    expect(gameStatus(pos).result).toBe('ongoing');
  });

  it('no-removal limit: 100 plies by default, configurable, 0 = off', () => {
    expect(DEFAULT_DRAW_RULES.noRemovalLimit).toBe(100);
    const pos = load(k2({ e1: 'K', f8: 'k' }, 's', 99, 50));
    expect(gameStatus(pos).result).toBe('ongoing');
    play(pos, 'e1e2');
    expect(pos.pliesSinceRemoval).toBe(100);
    expect(gameStatus(pos)).toMatchObject({ result: 'draw', winner: -1, reason: 'no-removal' });
    expect(gameStatus(pos, { noRemovalLimit: 0 }).result).toBe('ongoing');
    expect(gameStatus(pos, { noRemovalLimit: 101 }).result).toBe('ongoing');
    expect(gameStatus(pos, { noRemovalLimit: 10 }).reason).toBe('no-removal');
    expect(gameStatus(load(k2({ e1: 'K' }, 's', 0, 1)), { noRemovalLimit: 1 }).result).toBe('ongoing');
  });

  it('a removal resets the count and so avoids the draw', () => {
    const pos = load(k2({ j4: 'Pv', e4: 'pv', e1: 'K', f8: 'k' }, 's', 99, 50));
    expect(play(pos, 'e1e2')).toBe('e4');
    expect(pos.pliesSinceRemoval).toBe(0);
    expect(gameStatus(pos).result).toBe('ongoing');
  });

  it('a Pharaoh hit takes precedence over the draws', () => {
    const pos = load(k2({ j3: 'Av', j5: 'K', f8: 'k' }, 's', 120, 80));
    play(pos, 'j3i3');
    expect(gameStatus(pos).reason).toBe('pharaoh');
  });

  it('a bare composed position without a move is a draw', () => {
    const pos = load(kfen({ f8: 'k' }, 's'), 'khet1');
    expect(pos.countMoves()).toBe(0);
    expect(gameStatus(pos)).toMatchObject({ result: 'draw', reason: 'no-moves' });
    expect(gameStatus(load(CLASSIC)).text).toBe('Silver to move');
  });

  it('a new Position is empty and valid to set up in each edition', () => {
    for (const ed of ['khet2', 'khet1', 'deflexion'] as const) {
      const p = new Position(ed);
      expect(p.edition.id).toBe(ed);
      expect(p.rules.pharaohRotation).toBe(false);
      expect(Array.from(p.board).every((x) => x === 0)).toBe(true);
    }
  });
});

describe('the null move (search only)', () => {
  it('passes the turn without firing, and unmakeNull restores everything', () => {
    const pos = load(CLASSIC);
    play(pos, 'e1e2');
    const before = snapshot(pos);
    const board = Array.from(pos.board);
    pos.makeNull();
    expect(pos.side).toBe(0);
    expect(Array.from(pos.board)).toEqual(board); // nothing moved, nothing was shot
    expect(pos.keyLo ^ before.keyLo).toBe(SIDE_LO ^ 0); // only the side to move changed in the key
    expect(pos.keyHi ^ before.keyHi).toBe(SIDE_HI ^ 0);
    expect([pos.keyLo, pos.keyHi]).toEqual(scratchKey(pos));
    expect(pos.ply).toBe(before.ply + 1);
    expect(pos.moveAt(pos.ply - 1)).toBe(0);
    play(pos, 'c1d2'); // a real move after the null move makes and unmakes as usual
    expect([pos.keyLo, pos.keyHi]).toEqual(scratchKey(pos));
    pos.unmake();
    pos.unmakeNull();
    expect(snapshot(pos)).toEqual(before);
  });

  it('repetitions are not counted across a null move', () => {
    const pos = load(CLASSIC);
    play(pos, 'e1e2');
    play(pos, 'f8f7');
    pos.makeNull();
    pos.makeNull(); // the same board and side as before the two null moves
    expect(pos.repetitions()).toBe(0);
    pos.unmakeNull();
    pos.unmakeNull();
    play(pos, 'e2e1');
    play(pos, 'f7f8');
    expect(pos.repetitions()).toBe(1); // the real repetition is still seen
  });
});

describe('shot probes', () => {
  // A board from a search (bench 7) on which the beam that runs on past the piece on h3, when
  // that piece steps off it, circles for ever: a beam that starts inside the board need not end.
  const CIRCLING = [
    0, 0, 15, 16, 8, 0, 16, 0, 0, 4, 0, 0, 0, 0, 0, 44, 0, 15, 0, 0, 0, 0, 0, 0, 0, 21, 0, 20, 0, 14, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 45, 15, 0, 52, 0, 0, 0, 0, 0, 0, 47, 0, 15, 0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 53, 0, 0, 0, 0, 37, 0,
    46, 0, 50, 40, 50, 45, 0, 0,
  ];

  it('shotAfterPrepared agrees with make on every move, a beam that circles included', () => {
    const pos = new Position('khet2');
    pos.setup(CIRCLING, 0);
    const buf = new Int32Array(MAX_MOVES);
    const n = pos.generate(buf, 0);
    expect(n).toBeGreaterThan(50);
    pos.prepareShots();
    let offTheBeam = 0;
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      if ((m & 127) === sq('h3') && m >>> 14 === 0) offTheBeam++;
      const t = pos.shotAfterPrepared(m);
      const p = pos.probePiece;
      const killed = pos.make(m);
      const kp = killed >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
      pos.unmake();
      expect([t, p]).toEqual([killed, kp]);
    }
    expect(offTheBeam).toBeGreaterThan(0);
  });
});
