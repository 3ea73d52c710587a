/**
 * Engine command lines (`thoth match -engine cmd=…`, `thoth gui --engine …`) split into a program
 * and its arguments the way a POSIX shell splits words, without running a shell:
 *
 * - Unquoted spaces, tabs, carriage returns and newlines separate words.
 * - Outside quotes, `\` takes the next character literally (`a\ b` is one word); `\` before a
 *   newline removes both; a `\` at the very end is kept.
 * - `'…'` takes every character literally up to the next `'` (a `'` cannot appear inside).
 * - `"…"` takes characters literally, except that `\` before `$`, `` ` ``, `"`, `\` or a newline
 *   escapes it (the newline is removed with its `\`); before any other character `\` is kept.
 * - Quoted and unquoted parts that touch make one word (`--x='a b'` is `--x=a b`); `''` and `""`
 *   make an empty word.
 * - Nothing is expanded and nothing is an operator: `$`, `` ` ``, `*`, `?`, `~`, `#`, `|`, `&`,
 *   `;`, `<`, `>`, `(`, `)` are ordinary characters, as if quoted.
 * - A quote that is never closed is an error.
 */
import { err, ok, type Result } from '../core/result';

export interface CommandLineError {
  kind: 'unclosed quote';
  quote: '"' | "'";
  /** Character offset of the opening quote. */
  index: number;
}

export function formatCommandLineError(e: CommandLineError): string {
  return `unclosed ${e.quote} quote (opened at character ${e.index + 1})`;
}

const BLANK = new Set([' ', '\t', '\r', '\n']);
/** Characters that `"\x"` escapes; before others the backslash is kept. */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

/** Splits a command line into words (see the rules above). */
export function splitCommandLine(text: string): Result<string[], CommandLineError> {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (BLANK.has(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= n) {
        word += c;
        inWord = true;
        i++;
      } else if (text[i + 1] === '\n') {
        i += 2;
      } else {
        word += text[i + 1];
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return err({ kind: 'unclosed quote', quote: "'", index: i });
      word += text.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      const open = i;
      i++;
      for (;;) {
        if (i >= n) return err({ kind: 'unclosed quote', quote: '"', index: open });
        const d = text[i];
        if (d === '"') break;
        if (d === '\\' && i + 1 < n && DOUBLE_QUOTE_ESCAPES.has(text[i + 1])) {
          if (text[i + 1] !== '\n') word += text[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return ok(words);
}

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Words as one command line that {@link splitCommandLine} splits back into the same words:
 * plain words as they are, others in single quotes (a `'` written as `'\''`).
 */
export function formatCommandLine(words: readonly string[]): string {
  return words.map((w) => (PLAIN_WORD.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}
