/**
 * The record reader's property test, run in a child process by record-fuzz.test.ts so that a
 * reader that loops can be stopped (a loop in the test's own process could not be). Feeds
 * parseRecords random bytes and random mutations of real records (test/core/fixtures: a short
 * real match's -pgnout and its `thoth analyse --out`), and checks every answer: games and typed
 * errors, each game the writer takes written and read back as itself, each replayed (moves or a
 * typed error).
 *
 * Then long inputs (300,000 characters of one kind), where a reader whose work grows faster than
 * the text would take minutes.
 *
 * Prints `case K` before each input and `ok N` at the end; on a failed check it prints
 * `fail K <reason> <input as JSON>` and exits 1. Argument: the number of cases (default 1500).
 */
import { readFileSync } from 'node:fs';
import { parseRecords, replayRecord, serializeRecord, unwritableRecord } from '../../src/core/record';
import { plainRecord } from './helpers';

const cases = Number(process.argv[2] ?? 1500);
const fixtures = ['match.pgn', 'annotated.pgn'].map((f) =>
  readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8'),
);

/** Every character JavaScript's \s matches, beyond the plain space. */
const SPACES = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2001',
  '\u2002',
  '\u2003',
  '\u2004',
  '\u2005',
  '\u2006',
  '\u2007',
  '\u2008',
  '\u2009',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];
/** Pieces of text that mean something to the reader. */
const PIECES = [
  ...SPACES,
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '$',
  ';',
  '%',
  '<',
  '>',
  '!',
  '?',
  '!!',
  '??',
  '.',
  '...',
  '"',
  '\\',
  '1-0',
  '0-1',
  '1/2-1/2',
  '*',
  '12.',
  '$4',
  'j4i4',
  'e4+',
  '[Event "x"]',
  '\n\n',
  '+=',
  '∞',
  '\u0000',
  '\ud800',
  '0',
  '9',
];

// xorshift32: the same cases on every run
let seed = 0x9e3779b9;
const rand = (n: number): number => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};

function randomBytes(): string {
  const len = rand(2000);
  const bytes = Buffer.alloc(len);
  for (let k = 0; k < len; k++) bytes[k] = rand(256);
  return rand(2) === 0 ? bytes.toString('latin1') : bytes.toString('utf8');
}

function mutate(text: string): string {
  let t = text;
  for (let k = 1 + rand(12); k > 0; k--) {
    const at = rand(t.length + 1);
    switch (rand(5)) {
      case 0: // insert something meaningful
        t = t.slice(0, at) + PIECES[rand(PIECES.length)] + t.slice(at);
        break;
      case 1: // delete a range
        t = t.slice(0, at) + t.slice(at + 1 + rand(200));
        break;
      case 2: // repeat a range
        t = t.slice(0, at) + t.slice(at, at + rand(300)).repeat(1 + rand(5)) + t.slice(at);
        break;
      case 3: // one character replaced by a random one
        t = t.slice(0, at) + String.fromCharCode(rand(0x3100)) + t.slice(at + 1);
        break;
      default: {
        // every space of a range becomes another white space character
        const to = at + rand(2000);
        t = t.slice(0, at) + t.slice(at, to).replace(/ /g, () => SPACES[rand(SPACES.length)]) + t.slice(to);
      }
    }
  }
  return t;
}

function check(k: number, text: string): string | undefined {
  const parsed = parseRecords(text);
  if (!Array.isArray(parsed.games) || !Array.isArray(parsed.errors)) return 'not records';
  if (!(parsed.end >= 0 && parsed.end <= text.length)) return `end ${parsed.end} outside the text`;
  for (const e of parsed.errors) {
    if (!['tag', 'no result', 'variation', 'no game'].includes(e.kind) || typeof e.message !== 'string')
      return `untyped error ${JSON.stringify(e)}`;
  }
  for (const g of parsed.games) {
    // A game the writer takes reads back as itself (one whose garbage would read otherwise is refused).
    if (unwritableRecord(g) === undefined) {
      const back = parseRecords(serializeRecord(g)).games;
      if (back.length !== 1 || plainRecord(back[0]) !== plainRecord(g)) return 'a game written reads back otherwise';
    }
    const r = replayRecord(g);
    if (!r.ok && !['kfen', 'move'].includes(r.error.kind)) return `untyped replay error ${JSON.stringify(r.error)}`;
  }
  void k;
  return undefined;
}

for (let k = 0; k < cases; k++) {
  const text = k % 3 === 0 ? randomBytes() : mutate(fixtures[k % fixtures.length]);
  process.stdout.write(`case ${k}\n`);
  const why = check(k, text);
  if (why !== undefined) {
    process.stdout.write(`fail ${k} ${why} ${JSON.stringify(text)}\n`);
    process.exit(1);
  }
}
// Long inputs, where work that grows faster than the text would show: each must read as quickly
// as a real record of its size.
const HEAD = '[Event "x"]\n\n1. j4i4 ';
const LONG = [
  `${HEAD}${'!'.repeat(300_000)}x 1-0`,
  `${HEAD}${'?!'.repeat(150_000)} 1-0`,
  `${HEAD}${'('.repeat(20_000)}a4a3 ${')'.repeat(20_000)} 1-0`,
  `${HEAD}${'( a4a3 '.repeat(20_000)} 1-0`,
  `${HEAD}${'{'.repeat(300_000)}`,
  `${HEAD}${'{}'.repeat(150_000)} 1-0`,
  `${'[a '.repeat(100_000)}`,
  `${'[a "'.repeat(100_000)}`,
  `${'<'.repeat(300_000)}`,
  `${'%'.repeat(300_000)}`,
  `${HEAD}${'$'.repeat(300_000)} 1-0`,
  `${HEAD}${'1.'.repeat(150_000)} 1-0`,
  `${HEAD}${'1'.repeat(300_000)} 1-0`,
  `${HEAD}${' \f\v\u00a0\u2028\u3000'.repeat(50_000)} 1-0`,
  `${HEAD}${'j4i4 a4a3 i4j4 a3a4 '.repeat(75_000)} 1-0`,
  `${HEAD}${'1-0 '.repeat(20_000)}`,
];
for (const [k, text] of LONG.entries()) {
  process.stdout.write(`case long ${k}\n`);
  const why = check(k, text);
  if (why !== undefined) {
    process.stdout.write(`fail long ${k} ${why}\n`);
    process.exit(1);
  }
}
// A real record with every space replaced by another white space character reads as the same games
// (a line break aside: a tag's value is on one line).
for (const [f, text] of fixtures.entries()) {
  process.stdout.write(`case spaces ${f}\n`);
  const plain = parseRecords(text);
  for (const sp of SPACES.filter((c) => c !== '\n')) {
    const other = parseRecords(text.replace(/ /g, sp));
    const moves = (p: typeof plain): string => JSON.stringify(p.games.map((g) => g.moves.map((m) => m.move)));
    if (moves(other) !== moves(plain) || other.errors.length !== plain.errors.length) {
      process.stdout.write(
        `fail spaces U+${sp.charCodeAt(0).toString(16).padStart(4, '0')} reads otherwise than ' '\n`,
      );
      process.exit(1);
    }
  }
}
process.stdout.write(`ok ${cases}\n`);
