/** The board as text for people: coordinates on all sides, side to move, KFEN. */
import { RANKS, boardRows, square, toKfen, type Position } from '../core/index';

const FILE_LETTERS = 'abcdefghij';

/**
 * Lines of a diagram of `pos` (no trailing newline in any line). `mark` adds a character after a
 * square's piece (the danger map's `*` and `!`), or '' for none.
 */
export function renderBoard(pos: Position, mark: (sq: number) => string = () => ''): string[] {
  const ed = pos.edition;
  const [first, second] = ed.colorNames;
  const header =
    '     ' +
    [...FILE_LETTERS]
      .map((f) => f.padEnd(4))
      .join('')
      .trimEnd();
  const lines: string[] = [header];
  boardRows(pos.board, ed).forEach((texts, i) => {
    const rank = RANKS - i;
    const row = texts.map((t, file) => ((t === '' ? '.' : t) + mark(square(file, rank - 1))).padEnd(4)).join('');
    lines.push(` ${rank}   ${row} ${rank}`);
  });
  lines.push(header);
  lines.push('');
  const letters = ed.sphinx
    ? 'X Sphinx, K Pharaoh, P Pyramid, A Anubis, S Scarab'
    : `K Pharaoh, P Pyramid, ${ed.scarabLetter} Djed, O Obelisk, T two stacked Obelisks`;
  lines.push(`${first}: upper case, ${second}: lower case. ${letters}; ^ > v < = facing N E S W.`);
  lines.push(
    `${ed.name} (${ed.id}), ${ed.colorNames[pos.side]} to move, move ${pos.moveNumber}, ${pos.pliesSinceRemoval} ${pos.pliesSinceRemoval === 1 ? 'ply' : 'plies'} since a removal`,
  );
  lines.push(`KFEN: ${toKfen(pos)}`);
  return lines;
}
