import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseMatchArgs as parseResult } from '../../src/match/config';
import { defaultName } from '../../src/match/engine-process';
import { MatchConfigError } from '../../src/match/errors';
import { unwrap } from '../core/helpers';
import { Schedule } from '../../src/match/schedule';

const parseMatchArgs = (argv: string[]) => unwrap(parseResult(argv));

describe('command line', () => {
  it('cutechess/fastchess flags', () => {
    const c = parseMatchArgs([
      '-engine',
      'cmd=./new/thoth',
      'name=new',
      'option.Hash=32',
      'tc=40/60+0.6',
      '-engine',
      'cmd=node',
      'args=old/cli.js --flag "two words"',
      'dir=/tmp',
      'st=0.5',
      'timemargin=50',
      '-each',
      'option.Threads=1',
      'option.Hash=16',
      'tc=10+0.1',
      '-rounds',
      '50',
      '-repeat',
      '-concurrency',
      '1',
      '-variant',
      'khet1',
      '-openings',
      'setups=classic,dynasty',
      'plies=6',
      '-srand',
      '7',
      '-draw',
      'movenumber=34',
      'movecount=8',
      'score=20',
      '-resign',
      'movecount=3',
      'score=600',
      '-maxmoves',
      '150',
      '-recover',
      '-pgnout',
      'out.pgn',
      '-drawscore',
      '0.4',
      '-ratinginterval',
      '5',
      '-timemargin',
      '20',
    ]);
    expect(c.engines).toHaveLength(2);
    const [a, b] = c.engines;
    expect(a).toMatchObject({
      name: 'new',
      nameGiven: true,
      command: ['./new/thoth'],
      options: [
        ['Threads', '1'],
        ['Hash', '32'],
      ],
      timeMarginMs: 20,
    });
    expect(a.limits).toEqual({ tc: { moves: 40, baseMs: 60000, incMs: 600 } });
    expect(b).toMatchObject({
      name: 'cli',
      nameGiven: false,
      command: ['node', 'old/cli.js', '--flag', 'two words'],
      dir: '/tmp',
      timeMarginMs: 50,
    });
    expect(b.limits).toEqual({ movetimeMs: 500 }); // its own st= replaces -each tc=
    expect(c).toMatchObject({
      rounds: 50,
      games: 2,
      concurrency: 1,
      variant: 'khet1',
      srand: 7,
      recover: true,
      pgnout: 'out.pgn',
      drawScore: 0.4,
      ratingInterval: 5,
      openings: { kind: 'setups', setups: ['classic', 'dynasty'], plies: 6 },
      adjudication: {
        draw: { moveNumber: 34, moveCount: 8, score: 20 },
        resign: { moveCount: 3, score: 600, twoSided: false },
        maxPlies: 300,
      },
    });
  });

  it('defaults; SPRT runs until it decides', () => {
    const c = parseMatchArgs(['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'depth=3', '-sprt', 'elo0=0', 'elo1=2']);
    expect(c.rounds).toBe(Infinity);
    expect(c.games).toBe(2);
    expect(c.srand).toBe(DEFAULT_SEED);
    expect(c.sprt).toEqual({ elo0: 0, elo1: 2, alpha: 0.05, beta: 0.05, model: 'normalized' });
    expect(c.openings).toEqual({ kind: 'setups', setups: ['classic'], plies: 4 });
    const f = parseMatchArgs([
      '-engine',
      'cmd=a',
      'nodes=100',
      '-engine',
      'cmd=b',
      'depth=2',
      '-openings',
      'file=x.kfen',
      'order=random',
      '-pgnout',
      'file=g.pgn',
      '-games',
      '1',
    ]);
    expect(f.openings).toEqual({ kind: 'file', path: 'x.kfen', order: 'random', start: 1, plies: 0 });
    expect(f.pgnout).toBe('g.pgn');
    expect(f.rounds).toBe(1);
    expect(f.games).toBe(1);
  });

  it.each([
    [['-engine', 'cmd=a', 'tc=1'], /at least two/],
    [['-engine', 'cmd=a', '-engine', 'cmd=b'], /no time control/],
    [['-engine', 'name=a', 'tc=1', '-engine', 'cmd=b', 'tc=1'], /no cmd=/],
    [['-engine', 'cmd=a', 'tc=1', '-engine', 'cmd=b', 'tc=1', '-bogus'], /unknown flag -bogus/],
    [['-engine', 'cmd=a', 'tc=x', '-engine', 'cmd=b', 'tc=1'], /bad time control/],
    [['-engine', 'cmd=a', 'colour=red', 'tc=1', '-engine', 'cmd=b', 'tc=1'], /unknown engine setting 'colour'/],
    [['-engine', 'cmd=a', '-engine', 'cmd=b', '-engine', 'cmd=c', '-each', 'tc=1', '-sprt'], /exactly two/],
    [['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'tc=1', '-sprt', 'elo0=5', 'elo1=0'], /elo1 must be greater/],
    [['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'tc=1', '-variant', 'chess'], /unknown variant/],
    [
      ['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'tc=1', '-openings', 'setups=dynasty', '-variant', 'deflexion'],
      /no dynasty/,
    ],
    [['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'tc=1', '-drawscore', '2'], /drawscore/],
    [['-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'tc=1', '-resign', 'movecount=3'], /score=/],
    [['rounds', '3'], /expected a flag/],
    [['-engine', 'cmd=node "x', 'tc=1', '-engine', 'cmd=b', 'tc=1'], /-engine #1 cmd=: unclosed " quote/],
    [['-engine', 'cmd=a', "args='x", 'tc=1', '-engine', 'cmd=b', 'tc=1'], /-engine #1: args=: unclosed ' quote/],
    [['-engine', 'cmd=  ', 'tc=1', '-engine', 'cmd=b', 'tc=1'], /no cmd=/],
  ])('rejects %j', (argv, msg) => {
    const r = parseResult(argv as string[]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBeInstanceOf(MatchConfigError);
      expect(r.error.message).toMatch(msg);
    }
  });

  it('splits cmd= and args= like a shell would, and names engines', () => {
    const c = parseMatchArgs([
      '-engine',
      `cmd=node --import tsx "my dir/foo.ts"`,
      `args=a\\ b 'c d' ""`,
      '-engine',
      'cmd=b',
      '-each',
      'tc=1',
    ]);
    expect(c.engines[0].command).toEqual(['node', '--import', 'tsx', 'my dir/foo.ts', 'a b', 'c d', '']);
    expect(c.engines[0].name).toBe('foo');
    expect(defaultName(['node', '--import', 'tsx', 'engines/foo.ts'])).toBe('foo');
    expect(defaultName(['/usr/bin/stockfish'])).toBe('stockfish');
    expect(defaultName(['node', 'dist/cli.js'])).toBe('cli');
  });
});

describe('schedule', () => {
  it('two engines: game pairs with colours swapped, one opening per pair', () => {
    const s = new Schedule(2, 'roundrobin', 2, 3);
    expect(s.total).toBe(6);
    const g = [0, 1, 2, 3, 4, 5].map((i) => s.game(i));
    expect(g.map((x) => [x.first, x.second])).toEqual([
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    expect(g.map((x) => x.openingIndex)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(g[0].pairKey).toBe(g[1].pairKey);
    expect(g[1].pairKey).not.toBe(g[2].pairKey);
    expect(g.map((x) => x.roundTag)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1', '3.2']);
    expect(s.indexOfTag('2.2')).toBe(3);
    expect(s.indexOfTag('4.1')).toBeUndefined();
    expect(s.indexOfTag('1.3')).toBeUndefined();
  });

  it('round robin and gauntlet encounters; single games alternate colours by round', () => {
    expect(new Schedule(4, 'roundrobin', 2, 1).encounters).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(new Schedule(4, 'gauntlet', 2, 1).encounters).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    const s = new Schedule(2, 'roundrobin', 1, 4);
    expect([0, 1, 2, 3].map((i) => s.game(i).first)).toEqual([0, 1, 0, 1]);
    expect(s.game(0).pairKey).toBeUndefined();
    expect(s.paired).toBe(false);
    const inf = new Schedule(2, 'roundrobin', 2, Infinity);
    expect(inf.total).toBe(Infinity);
    expect(inf.game(1001).roundTag).toBe('501.2');
  });
});
