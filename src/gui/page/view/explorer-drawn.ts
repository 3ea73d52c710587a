/**
 * What the explorer's rows show, as one text (view/games-panel.ts): the page draws itself at every
 * line of an analysis, and the same text again needs no new rows, only their Eval cells.
 */
import type { ExplorerMove } from '../../../analysis/explorer';

/** The position (its edition and KFEN) and each section's title and rows (the first `rows`, and whether there are more). */
export function explorerDrawn(
  position: string,
  sections: readonly (readonly [string, readonly ExplorerMove[] | string, string])[],
  rows: number,
): string {
  const moveText = (m: ExplorerMove): string =>
    `${m.move} ${m.games} ${m.wins} ${m.draws} ${m.losses} ${m.best?.game ?? ''} ${m.best?.accuracy ?? ''}`;
  const part = ([title, moves, from]: readonly [string, readonly ExplorerMove[] | string, string]): string =>
    `${from} ${title}: ${
      typeof moves === 'string'
        ? moves
        : moves
            .slice(0, rows + 1)
            .map(moveText)
            .join(',')
    }`;
  return `${position}|${sections.map(part).join('|')}`;
}
