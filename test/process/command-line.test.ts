/** Command lines split like a POSIX shell splits words (checked against /bin/sh), and joined back. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { formatCommandLine, formatCommandLineError, splitCommandLine } from '../../src/process/command-line';

function words(text: string): string[] {
  const r = splitCommandLine(text);
  if (!r.ok) throw new Error(formatCommandLineError(r.error));
  return r.value;
}

/** The words /bin/sh makes of each text (in one shell run), or undefined where it refuses one. */
function shellWords(texts: string[]): (string[] | undefined)[] {
  // Each text runs in a subshell of its own: `printf` prints a marker and its words NUL-separated,
  // then \x01 ends the text's output; a text the shell cannot parse prints \x02 instead.
  const quote = (t: string): string => `'${t.replace(/'/g, "'\\''")}'`;
  const script = texts
    .map((t) => `(eval ${quote(`printf '%s\\0' X ${t}`)}) 2>/dev/null || printf '\\002'; printf '\\001'`)
    .join('\n');
  const r = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
  return r.stdout
    .split('\x01')
    .slice(0, texts.length)
    .map((p) => (p.endsWith('\x02') ? undefined : p.slice(0, -1).split('\0').slice(1)));
}

describe('splitCommandLine', () => {
  it('splits at blanks, with quotes and backslashes as a shell reads them', () => {
    expect(words('node --import tsx "my dir/engine.ts" --x=\'a b\'')).toEqual([
      'node',
      '--import',
      'tsx',
      'my dir/engine.ts',
      '--x=a b',
    ]);
    expect(words('  a\tb\r\nc  ')).toEqual(['a', 'b', 'c']);
    expect(words('')).toEqual([]);
    expect(words('   ')).toEqual([]);
    expect(words('a\\ b c')).toEqual(['a b', 'c']);
    expect(words('a"b c"d')).toEqual(['ab cd']);
    expect(words(`'' "" x`)).toEqual(['', '', 'x']);
  });

  it('backslashes: outside quotes any character, inside double quotes only $ ` " \\ and newline', () => {
    expect(words('\\a\\"\\\'')).toEqual(['a"\'']);
    expect(words('"a\\b\\"c\\\\d\\$e\\`f"')).toEqual(['a\\b"c\\d$e`f']);
    expect(words("'a\\b\\'")).toEqual(['a\\b\\']);
    expect(words('a\\\nb')).toEqual(['ab']);
    expect(words('"a\\\nb"')).toEqual(['ab']);
    expect(words('a\\')).toEqual(['a\\']);
  });

  it('expands nothing and knows no operators', () => {
    expect(words('$HOME ~ *.ts a|b c;d e>f `g` (h) #i')).toEqual([
      '$HOME',
      '~',
      '*.ts',
      'a|b',
      'c;d',
      'e>f',
      '`g`',
      '(h)',
      '#i',
    ]);
  });

  it('rejects an unclosed quote, saying where it opened', () => {
    expect(splitCommandLine('a "open')).toEqual({ ok: false, error: { kind: 'unclosed quote', quote: '"', index: 2 } });
    expect(splitCommandLine('x \'open "')).toEqual({
      ok: false,
      error: { kind: 'unclosed quote', quote: "'", index: 2 },
    });
    expect(splitCommandLine('"a\\"')).toMatchObject({ ok: false, error: { quote: '"', index: 0 } });
    expect(formatCommandLineError({ kind: 'unclosed quote', quote: '"', index: 2 })).toBe(
      'unclosed " quote (opened at character 3)',
    );
  });

  it.skipIf(!existsSync('/bin/sh'))('agrees with /bin/sh on random command lines', () => {
    const rng = mulberry32(12345);
    // No bare newline: the shell would end the command there (the fixed cases above cover it).
    const alphabet = ['a', 'b', 'c', ' ', ' ', '\t', "'", "'", '"', '"', '\\', '\\', '-', '='];
    const texts: string[] = [];
    for (let k = 0; k < 400; k++) {
      const n = 1 + ((rng() >>> 0) % 12);
      let t = '';
      for (let i = 0; i < n; i++) t += alphabet[(rng() >>> 0) % alphabet.length];
      texts.push(t);
    }
    const shell = shellWords(texts);
    let refused = 0;
    texts.forEach((t, i) => {
      const ours = splitCommandLine(t);
      const theirs = shell[i];
      if (theirs === undefined) {
        refused++;
        expect(ours.ok, JSON.stringify(t)).toBe(false);
      } else {
        expect(ours, JSON.stringify(t)).toEqual({ ok: true, value: theirs });
      }
    });
    expect(refused).toBeGreaterThan(20); // the unclosed-quote side was exercised too
    expect(refused).toBeLessThan(380);
  });
});

describe('formatCommandLine', () => {
  it('leaves plain words alone and quotes the rest so that they split back the same', () => {
    expect(formatCommandLine(['node', 'dist/cli.js', '--x=1'])).toBe('node dist/cli.js --x=1');
    expect(formatCommandLine(['my engine', '', "it's"])).toBe(`'my engine' '' 'it'\\''s'`);
    const rng = mulberry32(7);
    const alphabet = ['a', ' ', "'", '"', '\\', '$', '\n', '*', '#'];
    for (let k = 0; k < 200; k++) {
      const ws = Array.from({ length: (rng() >>> 0) % 4 }, () =>
        Array.from({ length: (rng() >>> 0) % 5 }, () => alphabet[(rng() >>> 0) % alphabet.length]).join(''),
      );
      expect(words(formatCommandLine(ws)), JSON.stringify(ws)).toEqual(ws);
    }
  });
});
