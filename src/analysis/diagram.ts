/** The board as text for people: coordinates on all sides, side to move, KFEN. */
import { pieceText, square, toKfen, type Position } from '../core/index';

const FILES = 'abcdefghij';

/**
 * Lines of a diagram of `pos` (no trailing newline in any line). `mark` adds a character after a
 * square's piece (the danger map's `*` and `!`), or '' for none.
 */
export function renderBoard(pos: Position, mark: (sq: number) => string = () => ''): string[] {
  const ed = pos.edition;
  const [first, second] = ed.colorNames;
  const header =
    '     ' +
    [...FILES]
      .map((f) => f.padEnd(4))
      .join('')
      .trimEnd();
  const lines: string[] = [header];
  for (let r = 7; r >= 0; r--) {
    let row = ` ${r + 1}   `;
    for (let f = 0; f < 10; f++) {
      const sq = square(f, r);
      const p = pos.board[sq];
      row += ((p === 0 ? '.' : pieceText(p, ed)) + mark(sq)).padEnd(4);
    }
    lines.push(`${row} ${r + 1}`);
  }
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
