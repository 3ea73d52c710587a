/** The commands' file helpers on real files: the record reader's limits, the same-file check, whole-file writes. */
import {
  linkSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORD_FILE_LIMIT } from '../../src/core/record';
import { checkWritable, outputIsInput, readRecordFile, sameFile, writeFileAtomic } from '../../src/process/files';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'thoth-files-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('readRecordFile', () => {
  it('reads a file up to the limit and refuses one past it, a binary one and /dev/zero, with the file named', () => {
    const d = temp();
    const f = join(d, 'a.pgn');
    writeFileSync(f, 'x'.repeat(3000));
    expect(readRecordFile(f, '', 3000)).toEqual({ ok: true, value: 'x'.repeat(3000) });
    expect(readRecordFile(f, '', 2999)).toEqual({
      ok: false,
      error: `'${f}' is larger than 2999 bytes, the limit for record files`,
    });
    writeFileSync(f, Buffer.from('[Event "x"]\0'));
    expect(readRecordFile(f)).toEqual({ ok: false, error: `'${f}' is not a record file (it holds binary data)` });
    expect(readRecordFile('/dev/zero', 'game record')).toEqual({
      ok: false,
      error: "game record '/dev/zero' is not a record file (it holds binary data)",
    });
    expect(readRecordFile(join(d, 'none'))).toEqual({
      ok: false,
      error: `cannot read '${join(d, 'none')}': no such file or directory`,
    });
    expect(RECORD_FILE_LIMIT).toBe(256 * 1024 * 1024);
  });
});

describe('sameFile and outputIsInput', () => {
  it('sees the same file through a relative path, a symbolic link and a hard link; a new file is none of them', () => {
    const d = temp();
    const f = join(d, 'g.pgn');
    writeFileSync(f, '*\n');
    symlinkSync(f, join(d, 'sym.pgn'));
    linkSync(f, join(d, 'hard.pgn'));
    expect(sameFile(f, relative(process.cwd(), f))).toBe(true);
    expect(sameFile(join(d, 'sym.pgn'), f)).toBe(true);
    expect(sameFile(join(d, 'hard.pgn'), f)).toBe(true);
    expect(sameFile(join(d, '..', d.split('/').pop()!, 'g.pgn'), f)).toBe(true);
    expect(sameFile(join(d, 'new.pgn'), f)).toBe(false);
    expect(outputIsInput(join(d, 'sym.pgn'), ['other', f])).toBe(
      `the output '${join(d, 'sym.pgn')}' is the input '${f}': writing it would destroy what is read; give another file`,
    );
    expect(outputIsInput(join(d, 'new.pgn'), [f, '-'])).toBeUndefined();
  });
});

describe('writeFileAtomic and checkWritable', () => {
  it('replaces a file whole and leaves no temporary file; a failed write leaves the old file', () => {
    const d = temp();
    const f = join(d, 'out.txt');
    writeFileSync(f, 'old');
    writeFileAtomic(f, 'new text');
    expect(readFileSync(f, 'utf8')).toBe('new text');
    expect(readdirSync(d)).toEqual(['out.txt']);
    expect(() => writeFileAtomic(join(d, 'no', 'out.txt'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(d)).toEqual(['out.txt']);
  });

  it('writes through a symbolic link: the file it leads to is replaced, the link kept', () => {
    const d = temp();
    const f = join(d, 'real.txt');
    writeFileSync(f, 'old');
    symlinkSync(f, join(d, 'link.txt'));
    writeFileAtomic(join(d, 'link.txt'), 'new');
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(lstatSync(join(d, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readdirSync(d).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('writes a device in place (never renames over /dev/null)', () => {
    writeFileAtomic('/dev/null', 'x');
    checkWritable('/dev/null');
    expect(readFileSync('/dev/null', 'utf8')).toBe('');
  });

  it('checks a path before the work without creating or emptying anything', () => {
    const d = temp();
    checkWritable(join(d, 'new.txt'));
    writeFileSync(join(d, 'old.txt'), 'keep');
    checkWritable(join(d, 'old.txt'));
    expect(readdirSync(d).sort()).toEqual(['old.txt']);
    expect(readFileSync(join(d, 'old.txt'), 'utf8')).toBe('keep');
    expect(() => checkWritable(join(d, 'missing', 'x'))).toThrow(/ENOENT/);
    expect(() => checkWritable(d)).toThrow(/directory/);
  });
});
