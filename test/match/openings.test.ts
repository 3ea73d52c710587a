import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETUPS, gameStatus, legalMoves, parseKfen, toKfen } from '../../src/core/index';
import { MatchConfigError } from '../../src/match/errors';
import { canHitPharaoh, isLostStart, makeRng, randomOpening } from '../../src/core/opening';
import { OpeningBook, genfens, readOpeningFile, setupPosition } from '../../src/match/openings';
import { unwrap } from '../core/helpers';
import { fake, run, tempDir } from './helpers';

function pos(kfen: string, v: 'khet2' | 'khet1' | 'deflexion' = 'khet2') {
  const r = parseKfen(kfen, v);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A start is fine: the game goes on and no side has a Pharaoh hit in one. */
function checkStart(kfen: string, v: 'khet2' | 'khet1' | 'deflexion'): void {
  const p = pos(kfen, v);
  expect(gameStatus(p).result).toBe('ongoing');
  for (const side of [0, 1]) {
    const q = p.clone();
    q.side = side;
    for (const m of legalMoves(q)) {
      q.make(m);
      expect(q.winner === side, `${kfen}: side ${side} hits the Pharaoh`).toBe(false);
      q.unmake();
    }
  }
}

describe('openings', () => {
  it('the setups are not lost starts', () => {
    for (const v of ['khet2', 'khet1', 'deflexion'] as const) {
      for (const k of Object.values(SETUPS[v])) expect(isLostStart(pos(k!, v))).toBe(false);
    }
  });

  it('detects a Pharaoh hit in one for either side', () => {
    // Dynasty: j3j2 makes Silver shoot its own Pharaoh, not Red's; make a position where Silver can hit Red's.
    const p = unwrap(setupPosition('khet2', 'classic'));
    expect(canHitPharaoh(p, 0)).toBe(false);
    // Find a short random line that gives someone a hit (exists in practice) and check the filter sees it.
    const rng = makeRng(7);
    let found = false;
    for (let t = 0; t < 300 && !found; t++) {
      const q = p.clone();
      for (let k = 0; k < 8; k++) {
        const ms = legalMoves(q);
        q.make(ms[Math.floor(rng() * ms.length)]);
        if (q.winner >= 0) break;
      }
      if (q.winner < 0 && (canHitPharaoh(q, 0) || canHitPharaoh(q, 1))) {
        expect(isLostStart(q)).toBe(true);
        found = true;
      }
    }
    expect(found).toBe(true);
  });

  it('random openings are legal, playable, deterministic', () => {
    for (const v of ['khet2', 'khet1', 'deflexion'] as const) {
      const base = pos(SETUPS[v].classic!, v);
      for (let seed = 1; seed <= 15; seed++) {
        const a = randomOpening(makeRng(seed), base, 6)!;
        const b = randomOpening(makeRng(seed), base, 6)!;
        expect(a).toBeDefined();
        expect(toKfen(a.position)).toBe(toKfen(b.position));
        expect(a.moves).toHaveLength(6);
        expect(a.position.side).toBe(0);
        checkStart(toKfen(a.position), v);
      }
    }
  });

  it('an opening book gives the same opening for an index every time', () => {
    const src = { kind: 'setups' as const, setups: ['classic' as const, 'dynasty' as const], plies: 3 };
    const b1 = unwrap(OpeningBook.open(src, 'khet2', 42));
    const b2 = unwrap(OpeningBook.open(src, 'khet2', 42));
    const b3 = unwrap(OpeningBook.open(src, 'khet2', 43));
    const list = [0, 1, 2, 3, 4].map((i) => b1.get(i).kfen);
    expect([0, 1, 2, 3, 4].map((i) => b2.get(i).kfen)).toEqual(list);
    expect([0, 1, 2, 3, 4].map((i) => b3.get(i).kfen)).not.toEqual(list);
    expect(new Set(list).size).toBe(5);
    expect(b1.get(1).label).toMatch(/^dynasty \+3 plies: \S+ \S+ \S+$/);
    expect(pos(list[0]).side).toBe(1); // 3 plies: Red to move
    expect(OpeningBook.open({ kind: 'setups', setups: ['dynasty'], plies: 0 }, 'deflexion', 1)).toMatchObject({
      ok: false,
      error: { message: 'deflexion has no dynasty setup (it has classic, imhotep)' },
    });
  });

  it('openings from a file: sequential, random, start=, extra plies', () => {
    const dir = tempDir();
    const file = join(dir, 'o.kfen');
    const lines = unwrap(genfens(5, { seed: 3, plies: 2, edition: 'khet2', setups: ['classic'] }));
    writeFileSync(file, `# a comment\n\n${lines.join('\n')}\ninfo string genfens ${SETUPS.khet2.imhotep}\n`);
    expect(readOpeningFile(file, 'khet2')).toEqual({ ok: true, value: [...lines, SETUPS.khet2.imhotep] });
    const seq = unwrap(
      OpeningBook.open({ kind: 'file', path: file, order: 'sequential', start: 2, plies: 0 }, 'khet2', 1),
    );
    expect(seq.get(0).kfen).toBe(lines[1]);
    expect(seq.get(5).kfen).toBe(lines[0]); // wraps around
    const rnd = unwrap(OpeningBook.open({ kind: 'file', path: file, order: 'random', start: 1, plies: 0 }, 'khet2', 1));
    expect(new Set([0, 1, 2, 3, 4, 5].map((i) => rnd.get(i).kfen)).size).toBe(6);
    const plus = unwrap(
      OpeningBook.open({ kind: 'file', path: file, order: 'sequential', start: 1, plies: 2 }, 'khet2', 1),
    );
    expect(plus.get(0).kfen).not.toBe(lines[0]);
    expect(plus.get(0).label).toMatch(/^o\.kfen#1 \+2 plies: \S+ \S+$/);

    writeFileSync(file, `${lines[0]}\nnot a kfen\n`);
    const bad = readOpeningFile(file, 'khet2');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/line 2: bad KFEN/);
    writeFileSync(file, `${lines[0]}\nxv9/10/10/10/10/10/10/4K4X^ s 0 1\n`);
    const noPharaoh = readOpeningFile(file, 'khet2');
    expect(!noPharaoh.ok && noPharaoh.error.message).toBe(
      `openings file '${file}' line 2: bad KFEN: placement: no Red Pharaoh: a position for play needs both (at character 1)`,
    );
    const missing = readOpeningFile(join(dir, 'missing'), 'khet2');
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toBeInstanceOf(MatchConfigError);
    expect(!missing.ok && missing.error.message).toBe(
      `cannot read openings file '${join(dir, 'missing')}': no such file or directory`,
    );
  });

  it('a device or binary file is refused at once, not read without end', () => {
    // /dev/zero was read whole (readFileSync): the process ran out of memory after a minute and more.
    const zero = readOpeningFile('/dev/zero', 'khet2');
    expect(!zero.ok && zero.error.message).toBe(
      "openings file '/dev/zero' is not a record file (it holds binary data)",
    );
    const dir = tempDir();
    const folder = readOpeningFile(dir, 'khet2');
    expect(!folder.ok && folder.error.message).toBe(`cannot read openings file '${dir}': it is a directory`);
  });

  it('genfens: distinct valid lines', () => {
    const lines = unwrap(
      genfens(40, { seed: 9, plies: 4, edition: 'khet1', setups: ['classic', 'imhotep', 'dynasty'] }),
    );
    expect(new Set(lines).size).toBe(40);
    for (const l of lines) checkStart(l, 'khet1');
    // With no plies there are only as many distinct starts as setups: more is an error, not duplicates.
    expect(genfens(1, { seed: 1, plies: 0, edition: 'khet2', setups: ['classic'] })).toEqual({
      ok: true,
      value: [SETUPS.khet2.classic],
    });
    const few = genfens(3, { seed: 1, plies: 0, edition: 'khet2', setups: ['classic'] });
    expect(!few.ok && few.error.message).toBe(
      'found only 1 distinct openings of the 3 asked for (0 random plies from classic; 1000 tries in a row gave none new): ask for fewer, or give more plies or setups',
    );
    expect(genfens(3, { seed: 1, plies: 0, edition: 'deflexion', setups: ['dynasty'] }).ok).toBe(false);
  });
});

describe('an openings file and the no-removal rule', () => {
  it('a line 100 plies after the last removal is over under the default rule, and a start with -noremoval 0 (also through a match)', async () => {
    const f = SETUPS.khet2.classic!.trim().split(/\s+/);
    const late = [f[0], f[1], '100', f[3]].join(' ');
    const file = join(tempDir(), 'late.kfen');
    writeFileSync(file, `${late}\n`);
    const def = readOpeningFile(file, 'khet2');
    expect(!def.ok && def.error.message).toMatch(/line 1: the game is already over$/);
    expect(readOpeningFile(file, 'khet2', { noRemovalLimit: 0 })).toEqual({ ok: true, value: [toKfen(pos(late))] });
    expect(readOpeningFile(file, 'khet2', { noRemovalLimit: 101 }).ok).toBe(true);
    const flags = [
      ...fake('a'),
      ...fake('b'),
      '-each',
      'depth=1',
      '-maxplies',
      '6',
      '-rounds',
      '1',
      '-openings',
      `file=${file}`,
      'plies=0',
    ];
    await expect(run(flags)).rejects.toThrow(/line 1: the game is already over$/);
    const played = await run([...flags, '-noremoval', '0']);
    expect(played.summary.finished).toHaveLength(2);
    expect(played.summary.stop).toBe('done');
  });
});
