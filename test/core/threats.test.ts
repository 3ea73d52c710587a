/**
 * The danger map (src/core/threats.ts) against brute force: on 10,000 random positions of each
 * edition (seeded random games from every setup, and random placements with every kind of piece,
 * Obelisk stacks included), for both sides' beams, every legal move is played on a board of its
 * own (the move applied here, not by make) and the beam traced square by square; the map must
 * list every move exactly once, its shot must be that trace, and the squares reached and hit must
 * be exactly the union of the traces.
 */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS,
  EDITIONS,
  KILL,
  OBELISK,
  PHARAOH,
  PYRAMID,
  Position,
  SCARAB,
  SETUPS,
  SPHINX,
  STACK,
  type EditionId,
  bbHas,
  formatMove,
  legalMoves,
  makePiece,
  mulberry32,
  setupsOf,
  threatMap,
  toKfen,
  tracePath,
} from '../../src/core/index';
import { boardAfter, k2, load, randInt, sq } from './helpers';

interface Brute {
  /** per square: the moves whose beam reaches it */
  reach: Set<number>[];
  /** per square: the moves whose shot removes the piece on it */
  hits: Set<number>[];
  /** per move: its trace as text */
  trace: Map<number, string>;
}

function traceText(steps: { square: number; out: number }[]): string {
  return steps.map((s) => `${s.square}:${s.out}`).join(' ');
}

/** Every move of `attacker` played and its beam traced. */
function brute(pos: Position, attacker: number): Brute {
  const ed = pos.edition;
  const other = load(toKfen(pos).replace(/ [a-z] /, ` ${ed.sideChars[attacker]} `), ed.id, pos.rules);
  const reach = Array.from({ length: 80 }, () => new Set<number>());
  const hits = Array.from({ length: 80 }, () => new Set<number>());
  const trace = new Map<number, string>();
  for (const m of legalMoves(other)) {
    const b = boardAfter(other.board, m);
    const laser = ed.laserSquare[attacker];
    const path = tracePath(b, laser, ed.sphinx ? b[laser] & 3 : ed.laserDir[attacker], !ed.sphinx);
    trace.set(m, traceText(path.steps));
    path.steps.forEach((s, k) => {
      if (!(ed.sphinx && k === 0)) reach[s.square].add(m);
    });
    if (path.killed >= 0) hits[path.killed].add(m);
  }
  return { reach, hits, trace };
}

function check(pos: Position, attacker: number): void {
  const want = brute(pos, attacker);
  const map = threatMap(pos, attacker);
  const where = `${toKfen(pos)} (${pos.edition.id}), ${pos.edition.colorNames[attacker]}'s beam`;
  const seen = new Set<number>();
  for (const shot of map.shots) {
    for (const m of shot.moves) {
      if (seen.has(m)) throw new Error(`${where}: ${formatMove(m)} in two shots`);
      seen.add(m);
      if (want.trace.get(m) !== traceText(shot.steps))
        throw new Error(
          `${where}: ${formatMove(m)} traces ${want.trace.get(m)}, the map says ${traceText(shot.steps)}`,
        );
    }
    const last = shot.steps[shot.steps.length - 1];
    if ((last.out === KILL ? last.square : -1) !== shot.hit) throw new Error(`${where}: hit`);
  }
  if (seen.size !== want.trace.size)
    throw new Error(`${where}: ${seen.size} moves in the map, ${want.trace.size} legal`);
  const reached = Array.from({ length: 80 }, () => new Set<number>());
  const hit = Array.from({ length: 80 }, () => new Set<number>());
  for (const shot of map.shots) {
    shot.steps.forEach((st, k) => {
      if (!(pos.edition.sphinx && k === 0)) for (const m of shot.moves) reached[st.square].add(m);
    });
    if (shot.hit >= 0) for (const m of shot.moves) hit[shot.hit].add(m);
  }
  const same = (a: Set<number>, b: Set<number>): boolean => a.size === b.size && [...a].every((x) => b.has(x));
  for (let s = 0; s < 80; s++) {
    if (!same(reached[s], want.reach[s])) throw new Error(`${where}: the moves reaching square ${s}`);
    if (!same(hit[s], want.hits[s])) throw new Error(`${where}: the moves hitting square ${s}`);
    if (bbHas(map.reach, 0, s) !== want.reach[s].size > 0) throw new Error(`${where}: reach mask at ${s}`);
    if (bbHas(map.hits, 0, s) !== want.hits[s].size > 0) throw new Error(`${where}: hits mask at ${s}`);
  }
  const wins = map.shots.flatMap((s, i) =>
    s.hit >= 0 && (s.hitPiece >> 2) % 8 === PHARAOH && s.hitPiece >> 5 !== attacker ? [i] : [],
  );
  expect(map.winning).toEqual(wins);
}

/** A random game of up to 120 plies from a random setup of the edition; the last position before its end. */
function randomGame(edition: EditionId, rand: () => number): Position {
  const names = setupsOf(edition);
  const pos = load(SETUPS[edition][names[randInt(rand, names.length)]]!, edition);
  const length = randInt(rand, 121);
  for (let i = 0; i < length; i++) {
    const moves = legalMoves(pos);
    const m = moves[randInt(rand, moves.length)];
    pos.make(m);
    if (pos.winner >= 0) {
      pos.unmake();
      break;
    }
  }
  return pos;
}

/** A random placement: both Pharaohs, the Sphinxes, and a random number of each other piece of the edition. */
function randomPlacement(edition: EditionId, rand: () => number): Position {
  const ed = EDITIONS[edition];
  const board = new Uint8Array(80);
  const put = (color: number, kind: number): void => {
    for (let tries = 0; tries < 200; tries++) {
      const s = randInt(rand, 80);
      if (board[s] !== 0 || (ed.reserved[color * 3 + (s >> 5)] & (1 << (s & 31))) !== 0) continue;
      board[s] = makePiece(color, kind, randInt(rand, 4));
      return;
    }
  };
  for (const color of [0, 1]) {
    if (ed.sphinx) {
      const ori = color === 0 ? [0, 3][randInt(rand, 2)] : [2, 1][randInt(rand, 2)];
      board[ed.laserSquare[color]] = makePiece(color, SPHINX, ori);
    }
    put(color, PHARAOH);
  }
  const kinds = ed.sphinx ? [PYRAMID, ANUBIS, SCARAB] : [PYRAMID, SCARAB, OBELISK, STACK];
  for (const color of [0, 1])
    for (const kind of kinds) for (let k = randInt(rand, kind === PYRAMID ? 9 : 4); k > 0; k--) put(color, kind);
  const pos = new Position(edition);
  pos.setup(board, randInt(rand, 2));
  return pos;
}

const POSITIONS = 10_000;

describe('the danger map matches brute force', () => {
  for (const edition of ['khet2', 'khet1', 'deflexion'] as EditionId[]) {
    it(`${EDITIONS[edition].name}: ${POSITIONS} random positions, both beams`, () => {
      const rand = mulberry32(edition.length * 7919);
      let stacks = 0;
      let pharaohHits = 0;
      let changes = 0;
      for (let i = 0; i < POSITIONS; i++) {
        const pos = i % 2 === 0 ? randomGame(edition, rand) : randomPlacement(edition, rand);
        if (pos.counts[STACK] + pos.counts[8 + STACK] > 0) stacks++;
        for (const attacker of [pos.side ^ 1, pos.side]) {
          check(pos, attacker);
          const map = threatMap(pos, attacker);
          pharaohHits += map.winning.length;
          changes += map.shots.length;
        }
      }
      // the positions exercise what the map must get right
      if (edition !== 'khet2') expect(stacks).toBeGreaterThan(POSITIONS / 4);
      expect(pharaohHits).toBeGreaterThan(POSITIONS / 10);
      expect(changes).toBeGreaterThan(POSITIONS * 4);
    });
  }
});

describe('the danger map in examples', () => {
  it('Khet 2.0 Classic: Red can turn its Sphinx; nothing of Silver is in danger', () => {
    const pos = load(SETUPS.khet2.classic);
    const map = threatMap(pos);
    expect(map.attacker).toBe(1);
    expect(map.winning).toEqual([]);
    expect(map.shots[0].change).toBe('none');
    expect(map.shots.some((s) => s.change === 'sphinx')).toBe(true);
    // the beam as it runs now (docs/rules.md §7.3): a8 … a4 (p→S) … a1 → off the board
    expect(map.shots[0].steps.map((s) => s.square).slice(0, 4)).toEqual([sq('a8'), sq('a7'), sq('a6'), sq('a5')]);
  });

  it('a rotation that would hit the Pharaoh: the danger to Silver, by which move', () => {
    // Red's beam runs down file a into the back of its own Pyramid on a3; turned to face N it
    // would send the beam east along rank 3 onto the Silver Pharaoh on e3
    const pos = load(k2({ a3: 'p>', e3: 'K', f8: 'k' }));
    const map = threatMap(pos);
    expect(map.winning.length).toBe(1);
    const win = map.shots[map.winning[0]];
    expect(win.moves.map(formatMove)).toEqual(['a3-']);
    expect(win.change).toBe('rotation');
    expect(win.hit).toBe(sq('e3'));
    // as it runs now the beam takes Red's own Pyramid off
    expect(map.shots[0].change).toBe('none');
    expect(map.shots[0].hit).toBe(sq('a3'));
    expect(bbHas(map.reach, 0, sq('d3'))).toBe(true);
    expect(bbHas(map.hits, 0, sq('e3'))).toBe(true);
    // Silver's own beam: up file j and off the board whatever Silver does but turn its Sphinx
    const mine = threatMap(pos, 0);
    expect(mine.winning).toEqual([]);
    expect(mine.shots.map((s) => s.change)).toEqual(['none', 'sphinx']);
  });

  it('a finished game has no shots', () => {
    const pos = load(SETUPS.khet2.dynasty!);
    pos.make(legalMoves(pos).find((m) => formatMove(m) === 'j3j2')!); // Silver shoots its own Pharaoh
    expect(pos.winner).toBe(1);
    expect(threatMap(pos).shots).toEqual([]);
  });
});
