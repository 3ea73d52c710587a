/**
 * Opening a game or a position from outside the page: a KFEN typed in the Import/Export card, a
 * record (PGN) imported there, or a link's (share.ts). A record opens on the analysis board
 * (record-io's loadImported), as does a link's position. Each asks first when it would abandon a
 * game in progress, and starts a new game of the page.
 */
import { EDITIONS, type EditionId } from '../../core/index';
import type { Dom } from './view/dom';
import type { LinkPayload } from './state/link';
import { ioMessage } from './view/panels';
import { formatImportError, importGame, importedTree, loadImported, movesAndPlies } from './state/record-io';
import * as S from './state/state';
import type { PageState } from './state/state';
import { newTree } from './state/tree';

const now = (): number => performance.now();

/** What opening needs of the page. */
export interface OpenHost {
  readonly dom: Dom;
  readonly state: PageState;
  /** Runs `start` after a confirmation when it would abandon a game in progress. */
  abandonThen(what: string, start: () => void): Promise<void>;
  startGame(f: (s: PageState) => PageState): void;
}

/** A KFEN, read in the edition of the settings first, then in the others. */
export function loadKfen(page: OpenHost, text: string): void {
  const wanted = page.state.settings.edition;
  const order: EditionId[] = [wanted, ...(['khet2', 'khet1', 'deflexion'] as EditionId[]).filter((e) => e !== wanted)];
  let firstError = '';
  const kfen = text.trim().split(/\s+/).join(' ');
  for (const ed of order) {
    const t = newTree(ed, kfen);
    if (t.ok) {
      void page.abandonThen('Loading a position', () => {
        page.startGame((x) => S.newGame(S.setSettings(x, { edition: ed }), t.value, { now: now() }));
        ioMessage(page.dom, `Position loaded (${EDITIONS[ed].name}).`);
      });
      return;
    }
    if (!firstError) firstError = t.error;
  }
  ioMessage(page.dom, `Not a KFEN: ${firstError}`, true);
}

/** A record opened on the analysis board, at its end, or at its main line's `ply` when given. */
export function importRecord(page: OpenHost, text: string, ply?: number): void {
  const imported = importGame(text);
  if (!imported.ok) return ioMessage(page.dom, `Cannot import: ${formatImportError(imported.error)}`, true);
  const g = imported.value;
  const t = importedTree(g);
  if (!t.ok) return ioMessage(page.dom, `Cannot import: ${t.error}`, true);
  void page.abandonThen('Importing a game', () => {
    page.startGame((x) => {
      const loaded = loadImported(x, g, t.value, now());
      return ply === undefined ? loaded : S.goTo(loaded, new Array<number>(ply).fill(0));
    });
    ioMessage(
      page.dom,
      `Game imported: ${movesAndPlies(g.moves.length)}${ply === undefined ? '' : `, shown at ply ${ply}`}.`,
    );
  });
}

/** A link's position or game (view/share.ts), opened in Analysis; an error's text when it cannot be. */
export function openLinked(page: OpenHost, p: LinkPayload): string | null {
  const analysis = (x: PageState): PageState => S.setMode(x, 'analysis', now());
  if (p.kind === 'kfen') {
    const t = newTree(p.edition, p.kfen);
    if (!t.ok) return t.error;
    void page.abandonThen('Opening a link', () => {
      page.startGame((x) => S.newGame(analysis(S.setSettings(x, { edition: p.edition })), t.value, { now: now() }));
      ioMessage(page.dom, `Position opened from the link (${EDITIONS[p.edition].name}).`);
    });
    return null;
  }
  const imported = importGame(p.pgn);
  if (!imported.ok) return formatImportError(imported.error);
  const t = importedTree(imported.value);
  if (!t.ok) return t.error;
  void page.abandonThen('Opening a link', () => {
    page.startGame((x) => loadImported(x, imported.value, t.value, now()));
    ioMessage(page.dom, `Game opened from the link: ${movesAndPlies(imported.value.moves.length)}.`);
  });
  return null;
}
