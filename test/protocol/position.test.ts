/** The built engine: `position` in all its forms, checked with `d`; `d`, `eval`, `go perft`, `query`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SETUPS,
  formatMove,
  keyHex,
  legalMoves,
  mirrorPosition,
  mulberry32,
  toKfen,
  type EditionId,
  type Position,
  type SetupName,
} from '../../src/core/index';
import { type Engine, MATE_IN_1, assertBuilt, positionOf, startEngine } from './spawn-engine';

const ALL_SETUPS: Array<{ edition: EditionId; setup: SetupName }> = (Object.keys(SETUPS) as EditionId[]).flatMap(
  (edition) => (Object.keys(SETUPS[edition]) as SetupName[]).map((setup) => ({ edition, setup })),
);

/** `n` moves chosen by a seeded generator, none of which ends the game. */
function someMoves(pos: Position, n: number, seed: number): string[] {
  const rand = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const ms = legalMoves(pos).filter((m) => {
      pos.make(m);
      const over = pos.winner >= 0;
      pos.unmake();
      return !over;
    });
    const m = ms[(rand() >>> 0) % ms.length];
    out.push(formatMove(m));
    pos.make(m);
  }
  for (let i = 0; i < n; i++) pos.unmake();
  return out;
}

describe('position', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine();
  });
  afterAll(() => e?.kill());

  async function expectNoOutput(line: string): Promise<void> {
    e.send(line);
    expect(await e.sync(), line).toEqual([]);
  }

  it('starts in Khet 2.0 Classic; position startpos is Classic', async () => {
    expect(await e.kfen()).toBe(SETUPS.khet2.classic!);
    await expectNoOutput('position startpos');
    expect(await e.kfen()).toBe(SETUPS.khet2.classic!);
  });

  it.each(ALL_SETUPS)(
    '$edition $setup: setup <name>, the bare UKI form, and with moves',
    async ({ edition, setup }) => {
      await expectNoOutput(`setoption name UCI_Variant value ${edition}`);
      const kfen = SETUPS[edition][setup]!;
      await expectNoOutput(`position setup ${setup}`);
      expect(await e.kfen()).toBe(kfen);
      await expectNoOutput('position startpos');
      await expectNoOutput(`position ${setup}`);
      expect(await e.kfen()).toBe(kfen);

      const pos = positionOf(kfen, [], edition);
      const moves = someMoves(pos, 6, kfen.length);
      for (const m of moves) pos.make(positionMove(pos, m));
      await expectNoOutput(`position setup ${setup} moves ${moves.join(' ')}`);
      expect(await e.kfen()).toBe(toKfen(pos));
      await expectNoOutput(`position ${setup} moves ${moves.join(' ')}`);
      expect(await e.kfen()).toBe(toKfen(pos));
      await expectNoOutput(`position kfen ${kfen} moves ${moves.join(' ')}`);
      expect(await e.kfen()).toBe(toKfen(pos));
      await expectNoOutput(`position fen ${kfen} moves ${moves.join(' ')}`);
      expect(await e.kfen()).toBe(toKfen(pos));
      if (setup === 'classic') {
        await expectNoOutput(`position startpos moves ${moves.join(' ')}`);
        expect(await e.kfen()).toBe(toKfen(pos));
      }
      await expectNoOutput('setoption name UCI_Variant value khet2');
    },
  );

  it('position kfen / fen take any KFEN, with extra whitespace and an empty move list', async () => {
    const k = 'xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/3P<A^KA^2X^ r 7 12';
    await expectNoOutput(`position kfen ${k}`);
    expect(await e.kfen()).toBe(k);
    await expectNoOutput('position startpos');
    await expectNoOutput(`position   fen   ${k.split(' ').join('   ')}   moves`);
    expect(await e.kfen()).toBe(k);
    await expectNoOutput(`position kfen ${MATE_IN_1} moves j5+`);
    expect(await e.kfen()).toBe('xv9/10/10/9Pv/10/10/10/4K4X^ r 0 1');
    await expectNoOutput('position startpos moves');
    expect(await e.kfen()).toBe(SETUPS.khet2.classic!);
  });

  it('d: the board, the KFEN, the key and the status', async () => {
    const moves = ['c1d2', 'h8g7', 'j1-'];
    const pos = positionOf(SETUPS.khet2.classic!, moves);
    await expectNoOutput(`position startpos moves ${moves.join(' ')}`);
    const out = await e.command('d', /^Status: /);
    const text = out.join('\n');
    expect(text).toContain('a   b   c   d   e   f   g   h   i   j');
    for (let r = 1; r <= 8; r++) expect(out.some((l) => l.startsWith(` ${r} |`))).toBe(true);
    expect(out).toContain(`KFEN: ${toKfen(pos)}`);
    expect(out).toContain(`Key: ${keyHex(pos.keyLo, pos.keyHi)}`);
    expect(out.some((l) => /^Variant: khet2 .*Red to move/.test(l))).toBe(true);
    expect(out[out.length - 1]).toBe('Status: Red to move');
  });

  it('eval: the hand-written terms and total, the network, and which one the search uses', async () => {
    await expectNoOutput('position startpos');
    const out = await e.command('eval', /^info string the search uses: /);
    expect(out[0]).toMatch(/^info string evaluation/);
    expect(out[1]).toMatch(/^info string hand-written evaluation/);
    const total = out.findIndex((l) => /^info string\s+total\s+-?\d+$/.test(l));
    const terms = out.slice(2, total);
    expect(terms.length).toBeGreaterThanOrEqual(3);
    for (const l of terms) expect(l).toMatch(/^info string\s+\S.*\s-?\d+(\.\d+)?$/);
    expect(terms.some((l) => /material/.test(l))).toBe(true);
    expect(out[total + 1]).toMatch(/^info string network/);
    expect(out[out.length - 1]).toMatch(
      /^info string the search uses: (the hand-written evaluation|the network), -?\d+$/,
    );
    expect(await e.sync()).toEqual([]);
  });

  it('go perft 3 from Classic: 77 divide lines, a blank line, Nodes searched: 451859', async () => {
    await expectNoOutput('position startpos');
    const out = await e.command('go perft 3', /^Nodes searched: /, 20_000);
    const blank = out.indexOf('');
    expect(blank).toBe(77);
    const divide = out.slice(0, blank);
    const pos = positionOf(SETUPS.khet2.classic!);
    expect(divide.map((l) => l.split(':')[0]).sort()).toEqual(legalMoves(pos).map(formatMove).sort());
    let sum = 0;
    for (const l of divide) {
      expect(l).toMatch(/^\S+: \d+$/);
      sum += Number(l.split(': ')[1]);
    }
    expect(sum).toBe(451_859);
    expect(out[out.length - 1]).toBe('Nodes searched: 451859');
    await e.collect(/^Nodes\/second: \d+$/);
    expect(await e.sync()).toEqual([]);
    expect(await e.kfen()).toBe(SETUPS.khet2.classic!);
  });

  it('go perft after moves counts from the current position', async () => {
    await expectNoOutput('position startpos moves c1d2');
    const out = await e.command('go perft 1', /^Nodes searched: /);
    expect(out[out.length - 1]).toBe(
      `Nodes searched: ${legalMoves(positionOf(SETUPS.khet2.classic!, ['c1d2'])).length}`,
    );
    await e.collect(/^Nodes\/second: /);
  });

  it('query gameover|p1turn|result → response …', async () => {
    const q = async (what: string): Promise<string> => (await e.command(`query ${what}`, /^response /)).join('|');
    await expectNoOutput('position startpos');
    expect(await q('gameover')).toBe('response false');
    expect(await q('p1turn')).toBe('response true');
    expect(await q('result')).toBe('response none');
    await expectNoOutput('position startpos moves c1d2');
    expect(await q('p1turn')).toBe('response false');
    // Silver hits the Red Pharaoh
    await expectNoOutput(`position kfen ${MATE_IN_1} moves j5+`);
    expect(await q('gameover')).toBe('response true');
    expect(await q('result')).toBe('response p1win');
    // the same, mirrored: Red hits the Silver Pharaoh
    const red = mirrorPosition(positionOf(MATE_IN_1));
    await expectNoOutput(`position kfen ${toKfen(red)}`);
    expect(await q('p1turn')).toBe('response false');
    await expectNoOutput(`position kfen ${toKfen(red)} moves a4+`);
    expect(await q('gameover')).toBe('response true');
    expect(await q('result')).toBe('response p2win');
    // no removal for 100 plies
    await expectNoOutput('position kfen xv9/10/10/2k7/10/10/10/4K4X^ s 100 60');
    expect(await q('gameover')).toBe('response true');
    expect(await q('result')).toBe('response draw');
    // threefold repetition
    await expectNoOutput('position startpos moves c1b2 h8h7 b2c1 h7h8 c1b2 h8h7 b2c1 h7h8');
    expect(await q('result')).toBe('response draw');
    await expectNoOutput('position startpos moves c1b2 h8h7 b2c1 h7h8 c1b2 h8h7 b2c1');
    expect(await q('result')).toBe('response none');
  });
});

function positionMove(pos: Position, text: string): number {
  const m = legalMoves(pos).find((x) => formatMove(x) === text);
  if (m === undefined) throw new Error(`not legal: ${text}`);
  return m;
}
