/**
 * The Game card while a puzzle is on the board (docs/gui.md, Puzzles): the form shows the
 * puzzle's edition and "Puzzle position" for its setup (not the game before's), and names the puzzle;
 * and its fields wait, with a line that says how to get back to games: the form's New game
 * would otherwise start a game with settings the card does not show.
 */
import { EDITIONS } from '../../../core/index';
import type { Puzzle } from '../../../puzzles/format';

const FIELDS = ['sel-edition', 'sel-setup', 'sel-tc', 'btn-new'];

export function renderPuzzleGameCard(doc: Document, puzzle: Puzzle | null): void {
  const edition = doc.getElementById('sel-edition') as HTMLSelectElement | null;
  const setup = doc.getElementById('sel-setup') as HTMLSelectElement | null;
  const note = doc.getElementById('pz-game-note');
  if (!edition || !setup || !note) return;
  for (const id of FIELDS) {
    const e = doc.getElementById(id) as HTMLInputElement | null;
    if (e) e.disabled = puzzle !== null;
  }
  note.hidden = puzzle === null;
  if (!puzzle) {
    note.textContent = '';
    return;
  }
  edition.value = puzzle.variant;
  // the form's own setups come back with its next drawing (panels.ts renderForm: its items differ)
  const items = `puzzle=${puzzle.id}`;
  if (setup.dataset.items !== items) {
    setup.replaceChildren(new Option('Puzzle position', ''));
    setup.dataset.items = items;
  }
  note.textContent = `Puzzle ${puzzle.id} (${EDITIONS[puzzle.variant].name}), a position from one of Thoth's games, is on the board. Exit it (Puzzles) to play a game.`;
}
