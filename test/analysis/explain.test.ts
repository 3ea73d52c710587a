/**
 * The beam explanations of a review (src/analysis/explain.ts) against the traced beam: 20 seeded
 * games of the three editions are reviewed as `thoth analyse --game` reviews them (at a small
 * depth), and for every `?` and `??` that gets an explanation the shot is made again here, on a
 * board the move is applied to by hand (test/core/helpers.ts), and traced square by square: the
 * mirrors, their owners, their order and the end the sentence names must be that beam's.
 */
import { describe, expect, it } from 'vitest';
import {
  KILL,
  PHARAOH,
  type Position,
  SETUPS,
  type EditionId,
  formatMove,
  kindOf,
  legalMoves,
  mulberry32,
  squareName,
  toKfen,
  tracePath,
} from '../../src/core/index';
import { makeRecord, type MoveRecord } from '../../src/core/record';
import { annotateGame, reviewAnnotation, type LoadedGame } from '../../src/analysis/annotate-game';
import {
  beamArrows,
  explainMove,
  explainSolution,
  reviewExplanations,
  type ShotExplanation,
} from '../../src/analysis/explain';
import { engineSearcher } from '../../src/engine/analysis-engine';
import { boardAfter, load, randInt } from '../core/helpers';
import { stretched } from '../slowness';

/** A seeded game: a random move half the time, else one whose shot takes an opponent's piece if any. */
function playGame(edition: EditionId, setup: string, rand: () => number, plies: number): LoadedGame {
  const start = load(setup, edition);
  const pos = start.clone();
  const moves: number[] = [];
  for (let k = 0; k < plies && pos.winner < 0; k++) {
    const legal = legalMoves(pos);
    const greedy = legal.filter((m) => {
      const t = pos.shotAfter(m);
      return t >= 0 && pos.board[t] >> 5 !== pos.side;
    });
    const pick = greedy.length > 0 && randInt(rand, 2) === 0 ? greedy : legal;
    const m = pick[randInt(rand, pick.length)];
    moves.push(m);
    pos.make(m);
  }
  const texts = moves.map(formatMove);
  const record = makeRecord({
    event: 'test',
    date: '2026.12.06',
    round: '1',
    players: ['a', 'b'],
    result: '*',
    variant: edition,
    kfen: setup,
    timeControl: '-',
    termination: 'normal',
    moves: texts.map((move): MoveRecord => ({ move })),
  });
  return { record, edition, start, moves, texts, gamesInFile: 1, index: 1 };
}

/** What the beam of the explanation's shot is when traced here: mirrors (square, colour) and its end. */
function traced(e: ShotExplanation): { mirrors: [number, number][]; end: number; hit: boolean; piece: number } {
  const p: Position = e.position;
  const ed = p.edition;
  const b = boardAfter(p.board, e.move);
  const laser = ed.laserSquare[p.side];
  const path = tracePath(b, laser, ed.sphinx ? b[laser] & 3 : ed.laserDir[p.side], !ed.sphinx);
  const mirrors: [number, number][] = [];
  path.steps.forEach((s, k) => {
    if (s.piece !== 0 && s.out < 4 && !(ed.sphinx && k === 0)) mirrors.push([s.square, s.piece >> 5]);
  });
  const last = path.steps[path.steps.length - 1];
  return { mirrors, end: last.square, hit: last.out === KILL, piece: last.piece };
}

/** Checks one explanation against the traced beam; returns nothing, throws with the game and ply. */
function checkExplanation(where: string, before: Position, played: number, e: ShotExplanation): void {
  const ed = before.edition;
  const t = traced(e);
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}\n  ${e.sentence}\n  at ${toKfen(e.position)} ${formatMove(e.move)}`);
  };
  // the shot's position is the one the line reaches
  const p = before.clone();
  for (const m of e.line.slice(0, -1)) p.make(m);
  if (toKfen(p) !== toKfen(e.position)) fail('the shot is not made where the line leads');
  if (e.line[e.line.length - 1] !== e.move) fail('the line does not end with the shot');
  if (e.kind === 'refutation' && e.line[0] !== played) fail('a refutation line starts with another move');
  // the mirrors and the end the explanation read are the traced beam's
  const got = e.reading.mirrors.map((m) => [m.square, m.color]);
  if (JSON.stringify(got) !== JSON.stringify(t.mirrors)) fail(`mirrors ${JSON.stringify(t.mirrors)} traced`);
  if (e.reading.endSquare !== t.end || (e.reading.end === 'hit') !== t.hit) fail('the end of the beam');
  if (!t.hit) fail('an explaining shot removes nothing');
  const victim = t.piece >> 5;
  if (e.kind === 'refutation' ? victim !== e.about : victim === e.about) fail('the shot hits the wrong side');
  // the sentence names the mirrors in the beam's order, each after its owner's name, then the end
  const s = e.sentence;
  let from = s.indexOf(': the beam ');
  if (from < 0) fail('no beam in the sentence');
  for (const [sq, color] of t.mirrors) {
    const at = s.indexOf(squareName(sq), from);
    if (at < 0) fail(`mirror ${squareName(sq)} not named in order`);
    const owners = [...s.slice(0, at).matchAll(/(\w+)'s/g)];
    if (owners[owners.length - 1]?.[1] !== ed.colorNames[color]) fail(`the owner of ${squareName(sq)}`);
    from = at + 2;
  }
  const endAt = s.indexOf(squareName(t.end), from);
  if (endAt < 0) fail('the end square is not named after the mirrors');
  if (kindOf(t.piece) === PHARAOH && !s.includes(`Pharaoh on ${squareName(t.end)}`)) fail('the Pharaoh hit');
  // how many of the mirrors are the mover's own pieces, when another side fired
  const own = t.mirrors.filter(([, c]) => c === e.about).length;
  if (e.shooter !== e.about && own > 0) {
    const note = t.mirrors.length === 1 ? 'its one mirror' : own === t.mirrors.length ? `all ${own}` : `${own} of its`;
    if (!s.includes(note)) fail(`the count of ${ed.colorNames[e.about]}'s own mirrors`);
  } else if (/mirrors? (is|are) \w+'s own/.test(s) || s.includes('its one mirror')) fail('a count of own mirrors');
}

const GAMES: { edition: EditionId; setup: string }[] = [
  ...['classic', 'imhotep', 'dynasty'].map((n) => ({ edition: 'khet2' as EditionId, setup: n })),
  ...['classic', 'imhotep', 'dynasty'].map((n) => ({ edition: 'khet1' as EditionId, setup: n })),
  ...['classic', 'imhotep'].map((n) => ({ edition: 'deflexion' as EditionId, setup: n })),
];

describe('explanations of a review, against the traced beam', () => {
  it(
    'every explained ? and ?? of 20 reviewed games names the beam its shot traces',
    () => {
      const searcher = engineSearcher(4, { network: null, source: 'none' });
      const rand = mulberry32(20261206);
      let marked = 0;
      let explained = 0;
      const kinds = new Set<string>();
      for (let g = 0; g < 20; g++) {
        const { edition, setup } = GAMES[g % GAMES.length];
        const game = playGame(edition, SETUPS[edition][setup as 'classic']!, rand, 36);
        const a = annotateGame(searcher, game, { depth: 3, timeMs: 0, multiPV: 1, noRemovalLimit: 100 });
        const review = reviewAnnotation(a);
        const why = reviewExplanations(game, a, review);
        const pos = game.start.clone();
        for (const [i, p] of a.plies.entries()) {
          const mark = review.plies[i].mark;
          if (mark !== '?' && mark !== '??') {
            expect(why[i]).toBeUndefined();
          } else {
            marked++;
            const e = why[i];
            if (e !== undefined) {
              explained++;
              kinds.add(e.kind);
              checkExplanation(`game ${g + 1} (${edition}), ply ${i + 1} ${p.text}${mark}`, pos, p.move, e);
            }
          }
          pos.make(p.move);
        }
      }
      // the games exercise the explanations: most marks have a shot, of both kinds
      expect(marked).toBeGreaterThan(40);
      expect(explained).toBeGreaterThan(marked / 2);
      expect([...kinds].sort()).toEqual(['missed', 'refutation']);
    },
    stretched(300_000),
  );
});

describe('explanations in examples', () => {
  it("a move that lets the opponent's turn hit the Pharaoh: the refutation, in words", () => {
    // Silver's Pyramid on c3 stands between Red's Pyramid on a3 and the Silver Pharaoh on e3 (a
    // beam along rank 3 would take it instead); stepped away to c2, it lets Red's a3- hit the Pharaoh
    const pos = load('xv9/10/10/10/10/p>1P^1K5/10/5k3X^ s 0 1');
    const played = legalMoves(pos).find((m) => formatMove(m) === 'c3c2')!;
    const after = pos.clone();
    after.make(played);
    const reply = legalMoves(after).find((m) => formatMove(m) === 'a3-')!;
    const e = explainMove(pos, played, [played, reply]);
    expect(e?.kind).toBe('refutation');
    expect(e?.sentence).toBe(
      "Red answers a3-: the beam bounces off Red's Pyramid on a3, and hits Silver's Pharaoh on e3: Red wins.",
    );
    // drawn as a record's arrows: from the Sphinx to the mirror to the Pharaoh
    expect(beamArrows(e!)).toEqual([
      { color: 'R', from: 'a8', to: 'a3' },
      { color: 'R', from: 'a3', to: 'e3' },
    ]);
  });

  it('a puzzle solution: the shot it wins by', () => {
    const pos = load('xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1');
    const win = legalMoves(pos).find((m) => formatMove(m) === 'j8+')!;
    const e = explainSolution(pos, [win]);
    expect(e?.sentence).toBe(
      "Silver wins with j8+: the beam bounces off Silver's Pyramid on j8, and hits Red's Pharaoh on f8: Silver wins.",
    );
  });
});
