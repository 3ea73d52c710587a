/**
 * KFEN (docs/rules.md §5.2): `<placement> <side> <plies since last removal> <move number>`.
 * The parser validates fully and returns an error naming the field and the character at fault;
 * it never throws.
 */
import { EDITIONS, type Edition, type EditionId } from './editions';
import {
  ANUBIS,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SPHINX,
  STACK,
  colorOf,
  kindName,
  kindOf,
  makePiece,
  oriOf,
} from './pieces';
import { DEFAULT_RULES, Position, type RuleOptions } from './position';
import { err, ok, type Result } from './result';
import { FILES, RANKS, SQUARES, square, squareName } from './squares';

export type KfenField = 'kfen' | 'placement' | 'side' | 'plies' | 'move number';

export interface KfenError {
  field: KfenField;
  /** Character offset in the whole KFEN text where the fault is, or -1. */
  index: number;
  message: string;
}

/** Plain data for a parsed KFEN. */
export interface KfenData {
  board: Uint8Array;
  side: number;
  pliesSinceRemoval: number;
  moveNumber: number;
}

const ORI_CHARS = '^>v<';
const KIND_BY_LETTER: Record<string, number> = {
  X: SPHINX,
  K: PHARAOH,
  A: ANUBIS,
  P: PYRAMID,
  S: SCARAB,
  D: SCARAB,
  O: OBELISK,
  T: STACK,
};

export function formatKfenError(e: KfenError): string {
  return e.index >= 0 ? `${e.field}: ${e.message} (at character ${e.index + 1})` : `${e.field}: ${e.message}`;
}

function fail(field: KfenField, index: number, message: string): { ok: false; error: KfenError } {
  return err({ field, index, message });
}

type KfenFail = { ok: false; error: KfenError };

/** The placement field being read: the board so far and the kings and lasers counted. */
interface Placement {
  ed: Edition;
  board: Uint8Array;
  pharaohs: number[];
  sphinxes: number[];
  /** The swapSphinx dialect: a Sphinx may stand off its corner. */
  anySphinxSquare: boolean;
}

/** Parses a KFEN for the given edition into plain data. */
export function parseKfenData(
  text: string,
  edition: Edition | EditionId = 'khet2',
  anySphinxSquare = false,
): Result<KfenData, KfenError> {
  const ed = typeof edition === 'string' ? EDITIONS[edition] : edition;
  if (typeof text !== 'string') return fail('kfen', -1, 'not a string');
  const fields: { text: string; start: number }[] = [];
  const re = /\S+/g;
  let mt: RegExpExecArray | null;
  while ((mt = re.exec(text)) !== null) fields.push({ text: mt[0], start: mt.index });
  if (fields.length === 0) return fail('kfen', -1, 'empty KFEN');
  if (fields.length !== 4) {
    return fail(
      'kfen',
      -1,
      `expected 4 fields (placement, side, plies since removal, move number), found ${fields.length}`,
    );
  }
  const placed = parsePlacement(fields[0].text, fields[0].start, ed, anySphinxSquare);
  if (!placed.ok) return placed;
  const sf = fields[1];
  const side = sf.text === ed.sideChars[0] ? 0 : sf.text === ed.sideChars[1] ? 1 : -1;
  if (side < 0) {
    return fail(
      'side',
      sf.start,
      `side to move must be '${ed.sideChars[0]}' or '${ed.sideChars[1]}' in ${ed.name}, not '${sf.text}'`,
    );
  }
  const pf = fields[2];
  if (!/^\d{1,6}$/.test(pf.text))
    return fail('plies', pf.start, `plies since the last removal must be a whole number, not '${pf.text}'`);
  const mf = fields[3];
  if (!/^\d{1,6}$/.test(mf.text) || Number(mf.text) < 1) {
    return fail('move number', mf.start, `the move number must be a whole number from 1, not '${mf.text}'`);
  }
  return ok({ board: placed.value, side, pliesSinceRemoval: Number(pf.text), moveNumber: Number(mf.text) });
}

/** The placement field (starting at `start` in the KFEN) as a board. */
function parsePlacement(
  text: string,
  start: number,
  ed: Edition,
  anySphinxSquare: boolean,
): Result<Uint8Array, KfenError> {
  const ranks = text.split('/');
  if (ranks.length !== 8) return fail('placement', start, `expected 8 ranks separated by '/', found ${ranks.length}`);
  const p: Placement = { ed, board: new Uint8Array(SQUARES), pharaohs: [0, 0], sphinxes: [0, 0], anySphinxSquare };
  let offset = start;
  for (let ri = 0; ri < 8; ri++) {
    const bad = parseRank(p, ranks[ri], 7 - ri, offset);
    if (bad) return bad;
    offset += ranks[ri].length + 1;
  }
  if (ed.sphinx) {
    for (const color of [0, 1]) {
      if (p.sphinxes[color] !== 1) {
        return fail(
          'placement',
          start,
          `${ed.name} needs one ${ed.colorNames[color]} Sphinx on ${squareName(ed.laserSquare[color])}`,
        );
      }
    }
  }
  return ok(p.board);
}

/** One rank of the placement (its text starts at `offset` in the KFEN); undefined when it is good. */
function parseRank(p: Placement, rankText: string, rank: number, offset: number): KfenFail | undefined {
  let file = 0;
  let i = 0;
  if (rankText.length === 0) return fail('placement', offset, `rank ${rank + 1} is empty`);
  while (i < rankText.length) {
    const c = rankText[i];
    const at = offset + i;
    if (c >= '0' && c <= '9') {
      let j = i;
      while (j < rankText.length && rankText[j] >= '0' && rankText[j] <= '9') j++;
      const run = Number(rankText.slice(i, j));
      if (run < 1 || run > 10 || rankText[i] === '0') {
        return fail('placement', at, `bad empty-square count '${rankText.slice(i, j)}' on rank ${rank + 1}`);
      }
      file += run;
      if (file > 10) return fail('placement', at, `rank ${rank + 1} has more than 10 squares`);
      i = j;
      continue;
    }
    const upper = c.toUpperCase();
    const kind = c.charCodeAt(0) < 128 ? KIND_BY_LETTER[upper] : undefined; // ASCII only: 'ſ'.toUpperCase() is 'S'
    if (kind === undefined || upper === c.toLowerCase()) {
      return fail('placement', at, `unknown piece letter '${c}' on rank ${rank + 1}`);
    }
    if (!p.ed.kinds[kind] || ((upper === 'S' || upper === 'D') && upper !== p.ed.scarabLetter)) {
      return fail(
        'placement',
        at,
        `'${c}' (${kindName(kind, upper === 'D' ? 'D' : 'S')}) does not exist in ${p.ed.name}`,
      );
    }
    if (file >= 10) return fail('placement', at, `rank ${rank + 1} has more than 10 squares`);
    let ori = 0;
    i++;
    if (kind === SPHINX || kind === PYRAMID || kind === ANUBIS || kind === SCARAB) {
      const oc = rankText[i];
      ori = oc === undefined ? -1 : ORI_CHARS.indexOf(oc);
      if (ori < 0) {
        const message =
          oc === undefined
            ? `'${c}' on rank ${rank + 1} needs an orientation (^ > v <)`
            : `'${oc}' is not an orientation (^ > v <) for '${c}' on rank ${rank + 1}`;
        return fail('placement', offset + i, message);
      }
      i++;
    }
    const bad = placePiece(p, c === upper ? 0 : 1, kind, ori, square(file, rank), at);
    if (bad) return bad;
    file++;
  }
  if (file !== 10)
    return fail('placement', offset + rankText.length, `rank ${rank + 1} has ${file} squares, expected 10`);
  return undefined;
}

/** Puts a piece on the board after the checks of where it may stand; undefined when it is good. */
function placePiece(
  p: Placement,
  color: number,
  kind: number,
  ori: number,
  sq: number,
  at: number,
): KfenFail | undefined {
  const ed = p.ed;
  if (kind === SPHINX) {
    p.sphinxes[color]++;
    if (sq !== ed.laserSquare[color] && !p.anySphinxSquare) {
      return fail(
        'placement',
        at,
        `a ${color === 0 ? 'first' : 'second'} player's Sphinx may stand only on ${squareName(ed.laserSquare[color])}, not ${squareName(sq)}`,
      );
    }
    const legal = color === 0 ? ori === 0 || ori === 3 : ori === 2 || ori === 1;
    if (!legal) {
      return fail(
        'placement',
        at + 1,
        `the Sphinx on ${squareName(sq)} must face ${color === 0 ? 'N (^) or W (<)' : 'S (v) or E (>)'}`,
      );
    }
  }
  if (kind === PHARAOH && ++p.pharaohs[color] > 1) {
    return fail('placement', at, `more than one ${ed.colorNames[color]} Pharaoh`);
  }
  if ((ed.reserved[color * 3 + (sq >> 5)] & (1 << (sq & 31))) !== 0) {
    return fail(
      'placement',
      at,
      `a ${ed.colorNames[color]} piece may not stand on ${squareName(sq)} (reserved for ${ed.colorNames[color ^ 1]})`,
    );
  }
  p.board[sq] = makePiece(color, kind, ori);
  return undefined;
}

/** Parses a KFEN into a new Position. */
export function parseKfen(
  text: string,
  edition: Edition | EditionId = 'khet2',
  rules: RuleOptions = DEFAULT_RULES,
): Result<Position, KfenError> {
  // a Sphinx stands on its corner, unless a swap may have moved it (the swapSphinx dialect)
  const r = parseKfenData(text, edition, rules.swapSphinx === true);
  if (!r.ok) return r;
  const pos = new Position(edition, rules);
  pos.setup(r.value.board, r.value.side, r.value.pliesSinceRemoval, r.value.moveNumber);
  return ok(pos);
}

/**
 * Parses a KFEN meant for play (a game, an analysis, a match opening): as {@link parseKfen}, and
 * both sides must have their Pharaoh (a board without one is no game: nothing can end it).
 * Move counting (perft) may take any board through parseKfen.
 */
export function parsePlayableKfen(
  text: string,
  edition: Edition | EditionId = 'khet2',
  rules: RuleOptions = DEFAULT_RULES,
): Result<Position, KfenError> {
  const r = parseKfen(text, edition, rules);
  if (!r.ok) return r;
  const missing = missingPharaohs(r.value.board, r.value.edition);
  if (missing !== undefined) return fail('placement', text.search(/\S/), missing);
  return r;
}

/** Why a board is not one to play on (a side without its Pharaoh), or undefined. */
export function missingPharaohs(board: ArrayLike<number>, ed: Edition): string | undefined {
  const have = [false, false];
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq];
    if (p !== 0 && kindOf(p) === PHARAOH) have[colorOf(p)] = true;
  }
  const none = [0, 1].filter((c) => !have[c]).map((c) => ed.colorNames[c]);
  if (none.length === 0) return undefined;
  return `no ${none.join(' and no ')} Pharaoh: a position for play needs both`;
}

/** The KFEN letter(s) of a piece in an edition. */
export function pieceText(p: number, ed: Edition): string {
  const kind = kindOf(p);
  let letter = ['', 'X', 'K', 'P', 'A', ed.scarabLetter, 'O', 'T'][kind];
  if (colorOf(p) === 1) letter = letter.toLowerCase();
  if (kind === SPHINX || kind === PYRAMID || kind === ANUBIS || kind === SCARAB) letter += ORI_CHARS[oriOf(p)];
  return letter;
}

/** The board as rows of its pieces' KFEN text ('' for an empty square): rank 8 first, each from file a. */
export function boardRows(board: ArrayLike<number>, ed: Edition): string[][] {
  const rows: string[][] = [];
  for (let rank = RANKS - 1; rank >= 0; rank--) {
    const row: string[] = [];
    for (let file = 0; file < FILES; file++) {
      const p = board[square(file, rank)];
      row.push(p === 0 ? '' : pieceText(p, ed));
    }
    rows.push(row);
  }
  return rows;
}

/** Serializes a board and the counters as KFEN. */
export function boardToKfen(
  board: ArrayLike<number>,
  side: number,
  plies: number,
  moveNumber: number,
  ed: Edition,
): string {
  const rows = boardRows(board, ed).map((texts) => {
    let row = '';
    let empty = 0;
    for (const t of texts) {
      if (t === '') {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      row += t;
    }
    return empty > 0 ? row + String(empty) : row;
  });
  return `${rows.join('/')} ${ed.sideChars[side]} ${plies} ${moveNumber}`;
}

export function toKfen(pos: Position): string {
  return boardToKfen(pos.board, pos.side, pos.pliesSinceRemoval, pos.moveNumber, pos.edition);
}
