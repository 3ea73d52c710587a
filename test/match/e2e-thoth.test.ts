/**
 * A short real match with Thoth itself (the built engine, dist/cli.js, as `npm test` builds it)
 * against the greedy fake engine. Skipped while the build is missing or cannot play a move.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gameStatus } from '../../src/core/index';
import { parseRecords, recordPlayers, replayRecord } from '../../src/core/record';
import { ROOT, fake, run, tempDir } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');

/** True when `node dist/cli.js` answers uci and plays a move at depth 1 (within a generous 30 s: a loaded machine must not skip the test). */
async function thothCanPlay(): Promise<boolean> {
  if (!existsSync(CLI)) return false;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 30_000);
    child.on('error', () => done(false));
    child.on('exit', () => done(/^bestmove \S+/m.test(out)));
    child.stdout.on('data', (d) => {
      out += d;
      if (/^bestmove \S+/m.test(out)) done(/^uciok$/m.test(out));
    });
    child.stdin.on('error', () => {});
    child.stdin.write('uci\nisready\nposition startpos\ngo depth 1\n');
  });
}

const canPlay = await thothCanPlay();

describe.skipIf(!canPlay)('Thoth in a match', () => {
  it('plays clean games at 1+0.01 and at depth 2 (no faults)', async () => {
    for (const limit of ['tc=1+0.01', 'depth=2']) {
      const dir = tempDir();
      const pgn = join(dir, 'g.pgn');
      const { summary } = await run([
        '-engine',
        'cmd=node',
        `args=${CLI}`,
        'name=thoth',
        'option.Hash=8',
        ...fake('greedy', '--seed 3'),
        '-each',
        limit,
        'timemargin=1000',
        '-rounds',
        '1',
        '-pgnout',
        pgn,
        '-pingtimeout',
        '5000',
      ]);
      expect(summary.stop).toBe('done');
      const games = parseRecords(readFileSync(pgn, 'utf8')).games;
      expect(games).toHaveLength(2);
      for (const g of games) {
        expect(['normal', 'adjudication']).toContain(g.tags.get('Termination'));
        const rep = replayRecord(g);
        expect(rep.ok).toBe(true);
        if (rep.ok && g.tags.get('Termination') === 'normal')
          expect(gameStatus(rep.value.position).result).not.toBe('ongoing');
        // Thoth's moves carry its score and depth.
        const thothSide = recordPlayers(g)[0] === 'thoth' ? 0 : 1;
        const own = g.moves.filter((_, i) => i % 2 === thothSide);
        expect(own.length).toBeGreaterThan(0);
        expect(own.every((m) => m.depth !== undefined && (m.scoreCp !== undefined || m.mate !== undefined))).toBe(true);
      }
    }
  });

  it("ponder=true: Thoth thinks on the opponent's time (go ponder), ponderhit when it guessed, stop when not", async () => {
    const dir = tempDir();
    const log = join(dir, 'traffic.log');
    const both = ['-engine', 'cmd=node', `args=${CLI}`, 'option.Hash=8', 'ponder=true'];
    const { summary } = await run([
      ...both,
      'name=a',
      ...both,
      'name=b',
      '-each',
      'tc=2+0.05',
      'timemargin=1000',
      '-rounds',
      '1',
      '-log',
      log,
      '-openings',
      'setups=classic',
      'plies=2',
    ]);
    expect(summary.stop).toBe('done');
    for (const f of summary.finished) expect(['normal', 'adjudication']).toContain(f.record.tags.get('Termination'));
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/ [ab] > go ponder wtime \d+ btime \d+/);
    // Thoth against Thoth guesses the reply often: a hit is answered from the ponder search
    expect(text).toMatch(/ [ab] > ponderhit$/m);
    // every go ponder ends in a ponderhit or a stop before that engine is asked again
    const lines = text.split('\n');
    for (const who of ['a', 'b']) {
      let open = false;
      for (const l of lines) {
        if (l.includes(` ${who} > go ponder`)) {
          expect(open).toBe(false);
          open = true;
        } else if (open && (l.endsWith(` ${who} > ponderhit`) || l.endsWith(` ${who} > stop`))) open = false;
        else if (l.includes(` ${who} > go `)) expect(open).toBe(false);
      }
    }
  });
});
