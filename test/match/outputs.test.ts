/**
 * `thoth match` never writes over what it reads: an output (-pgnout, -report json=, the -resume
 * file as the record file) that is an input (the -openings file, the -resume file of another
 * -pgnout, a file in an engine's command) or the other output is refused before anything starts.
 */
import { spawn } from 'node:child_process';
import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMatchArgs } from '../../src/match/config';
import { outputClash } from '../../src/match/outputs';
import { unwrap } from '../core/helpers';
import { ROOT, fake, run, tempDir } from './helpers';

const CLI = join(ROOT, 'bin', 'thoth.js');
const KFEN = 'xv3avkav3/2pv4p>2/3P<4P<1/p^1Pv1s^s>1p>2/p>1P<1S>S^1p^1Pv/6pv3/7P^2/2P<A<KA^3X^ s 4 3';

function clash(dir: string, flags: string[]): string | undefined {
  const engines = [
    '-engine',
    'cmd=node',
    `args=${join(dir, 'engine.mjs')} --fast`,
    '-engine',
    'cmd=./run.sh',
    `dir=${dir}`,
    '-each',
    'depth=1',
  ];
  return outputClash(unwrap(parseMatchArgs([...engines, ...flags])));
}

function setup(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'book.kfen'), `${KFEN}\n`);
  writeFileSync(join(dir, 'old.pgn'), '');
  writeFileSync(join(dir, 'engine.mjs'), '');
  writeFileSync(join(dir, 'run.sh'), '');
  writeFileSync(join(dir, 'net.nnue'), '');
  symlinkSync(join(dir, 'book.kfen'), join(dir, 'link.kfen'));
  linkSync(join(dir, 'book.kfen'), join(dir, 'hard.kfen'));
  return dir;
}

describe('an output that is an input', () => {
  it('is found by resolved path, symbolic and hard link, relative to an engine dir=', () => {
    const d = setup();
    const book = join(d, 'book.kfen');
    expect(clash(d, ['-openings', `file=${book}`, '-pgnout', book])).toBe(
      `-pgnout ${book} is the openings file '${book}': writing it would destroy what the run reads; give another file`,
    );
    expect(clash(d, ['-openings', `file=${book}`, '-pgnout', join(d, 'sub', '..', 'link.kfen')])).toMatch(
      /^-pgnout .* is the openings file/,
    );
    expect(clash(d, ['-openings', `file=${book}`, '-report', `json=${join(d, 'hard.kfen')}`])).toMatch(
      /^-report json=.*hard\.kfen is the openings file/,
    );
    expect(clash(d, ['-openings', `file=${book}`, '-resume', join(d, 'link.kfen')])).toMatch(
      /^-resume .* is the openings file/,
    );
    expect(
      clash(d, ['-resume', join(d, 'old.pgn'), '-pgnout', join(d, 'new.pgn'), '-report', `json=${join(d, 'old.pgn')}`]),
    ).toMatch(/^-report json=.*old\.pgn is the -resume file/);
    expect(clash(d, ['-pgnout', join(d, 'engine.mjs')])).toMatch(
      /is read by the command of -engine #1, the file '.*engine\.mjs'/,
    );
    expect(clash(d, ['-report', `json=${join(d, 'run.sh')}`])).toMatch(
      /is read by the command of -engine #2, the file '\.\/run\.sh'/,
    );
    expect(clash(d, ['-each', 'option.EvalFile=net.nnue', '-pgnout', join(d, 'net.nnue')])).toMatch(
      /is read by option\.EvalFile of -engine #2, the file 'net\.nnue'/, // engine #2 runs in dir=
    );
    expect(clash(d, ['-pgnout', join(d, 'g.pgn'), '-report', `json=${join(d, 'g.pgn')}`])).toMatch(
      /^-report json=.* is the record file/,
    );
    expect(clash(d, ['-resume', join(d, 'g.pgn'), '-report', `json=${join(d, 'g.pgn')}`])).toMatch(
      /^-report json=.* is the record file/,
    );
  });

  it('lets files of their own through, and -resume with the same -pgnout', () => {
    const d = setup();
    expect(
      clash(d, [
        '-openings',
        `file=${join(d, 'book.kfen')}`,
        '-pgnout',
        join(d, 'g.pgn'),
        '-report',
        `json=${join(d, 'g.jsonl')}`,
      ]),
    ).toBeUndefined();
    expect(clash(d, ['-resume', join(d, 'old.pgn'), '-pgnout', join(d, 'old.pgn')])).toBeUndefined();
    expect(clash(d, ['-resume', join(d, 'old.pgn')])).toBeUndefined();
    expect(clash(d, ['-pgnout', '/dev/null', '-report', 'json=/dev/null'])).toBeUndefined(); // a device destroys nothing
  });

  it('a device is an output like a file: -pgnout /dev/null and -report json=/dev/null play the run', async () => {
    // fsync of /dev/null fails with EINVAL: it stopped the run after the first game.
    const { summary } = await run([
      ...fake('A'),
      ...fake('B'),
      '-each',
      'depth=1',
      '-games',
      '2',
      '-pgnout',
      '/dev/null',
      '-report',
      'json=/dev/null',
    ]);
    expect(summary.stop).toBe('done');
    expect(summary.finished).toHaveLength(2);
  });

  it('thoth match refuses it with one line, exit 2, the file untouched', async () => {
    const d = setup();
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const p = spawn(
        process.execPath,
        [
          CLI,
          'match',
          '-engine',
          'cmd=node',
          `args=${CLI}`,
          '-engine',
          'cmd=node',
          `args=${CLI}`,
          '-each',
          'depth=1',
          '-openings',
          'file=book.kfen',
          '-pgnout',
          'link.kfen',
        ],
        { cwd: d },
      );
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (b) => (stdout += b));
      p.stderr.on('data', (b) => (stderr += b));
      p.on('close', (status) => done({ status, stdout, stderr }));
    });
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "thoth match: -pgnout link.kfen is the openings file 'book.kfen': writing it would destroy what the run reads; give another file\n",
    });
    expect(readFileSync(join(d, 'book.kfen'), 'utf8')).toBe(`${KFEN}\n`);
  });
});
