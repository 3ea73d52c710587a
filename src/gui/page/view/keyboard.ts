/**
 * The page's keys (keys.ts maps a key to an action): the actions run as transitions, and keyboard
 * play on the board — the board reached by Tab, or ↑ ↓ Enter Space on it, moves its cursor with
 * the arrows; a click on the board ends it (← → then step through the moves, as on lichess).
 */
import type { Dom } from './dom';
import { keyAction, type KeyAction } from './keys';
import * as E from '../state/editor';
import { drawEscape, drawingOn, setDrawColor, toggleDrawMode } from '../state/drawings';
import { toggleNag } from '../state/move-notes';
import * as S from '../state/state';
import type { PageState, Settings } from '../state/state';
import { DANGER_VIEWS, type DangerView } from '../state/state-types';

const now = (): number => performance.now();

/** Keys on the board that start keyboard play (the arrows then move the board's cursor). */
const STARTS_KEYBOARD_PLAY = new Set(['ArrowUp', 'ArrowDown', 'Enter', ' ']);

/** What the keys need of the page. */
export interface KeyHost {
  readonly dom: Dom;
  readonly state: PageState;
  update(f: (s: PageState) => PageState): void;
  renderBoard(): void;
  /** A key during the shot on show skips it: true when it did. */
  skipHold(): boolean;
  ask(text: string, yes: string): Promise<boolean>;
  closeBanner(): void;
  /** Changes the person's settings (kept in storage). */
  setSettings(change: Partial<Settings>): void;
}

/** The danger map's next view: off, then what can hit the side to move, then what it can hit. */
function nextDanger(d: DangerView | undefined): DangerView {
  return DANGER_VIEWS[(DANGER_VIEWS.indexOf(d ?? 'off') + 1) % DANGER_VIEWS.length];
}

export class Keyboard {
  /** The person plays with the keyboard on the board (its arrows move the cursor). */
  playing = false;
  private pointerFocus = false;

  constructor(private readonly page: KeyHost) {}

  /** Listens to the document's keys and to the board's focus. */
  wire(): void {
    const board = this.page.dom.board;
    board.addEventListener(
      'pointerdown',
      () => {
        // A click on the board takes the keys from the field last used (a select would eat ← →),
        // and ends keyboard play.
        this.playing = false;
        if (document.activeElement !== board) {
          this.pointerFocus = true;
          board.focus({ preventScroll: true });
          this.pointerFocus = false;
        }
      },
      true,
    );
    board.addEventListener('focus', () => {
      // Tab into the board starts keyboard play (a click or a script's focus does not).
      if (board.matches(':focus-visible') && !this.pointerFocus) this.playing = true;
      this.page.renderBoard();
    });
    board.addEventListener('blur', () => this.page.renderBoard());
    document.addEventListener('keydown', (e) => this.onKey(e));
  }

  run(a: KeyAction): void {
    const page = this.page;
    const s = page.state;
    switch (a) {
      case 'cursor-up':
        return page.update((x) => S.moveCursor(x, 0, 1));
      case 'cursor-down':
        return page.update((x) => S.moveCursor(x, 0, -1));
      case 'cursor-left':
        return page.update((x) => S.moveCursor(x, -1, 0));
      case 'cursor-right':
        return page.update((x) => S.moveCursor(x, 1, 0));
      case 'cursor-enter':
        if (s.cursor < 0) return page.update((x) => S.moveCursor(x, 0, 0));
        return page.update((x) => ({ ...S.clickSquare(x, x.cursor, now(), x.selected), cursor: x.cursor }));
      case 'rotate-cw':
        return page.update((x) => S.rotateSelected(x, '+', now()));
      case 'rotate-ccw':
        return page.update((x) => S.rotateSelected(x, '-', now()));
      case 'stack-toggle':
        return page.update(S.toggleStackTop);
      case 'escape':
        return this.escape(s);
      case 'take-back':
        return this.takeBack(s);
      case 'danger':
        return page.setSettings({ danger: nextDanger(s.settings.danger) });
      case 'editor':
        return page.update((x) => E.openEditor(x, now()));
      case 'draw-mode':
        return page.update(toggleDrawMode);
      case 'color-G':
      case 'color-R':
      case 'color-B':
      case 'color-Y':
        return page.update((x) => setDrawColor(x, a.slice(6) as 'G' | 'R' | 'B' | 'Y'));
      case 'nag-1':
      case 'nag-2':
      case 'nag-3':
      case 'nag-4':
      case 'nag-5':
      case 'nag-6':
        return page.update((x) => toggleNag(x, Number(a.slice(4))));
      default:
        return this.step(a);
    }
  }

  /** The moves' steps and the board's flip. */
  private step(a: 'first' | 'last' | 'prev' | 'next' | 'flip'): void {
    const page = this.page;
    switch (a) {
      case 'first':
        return page.update(S.goFirst);
      case 'last':
        return page.update(S.goLast);
      case 'prev':
        return page.update((x) => (x.preview ? S.stepPreview(x, -1) : S.step(x, -1)));
      case 'next':
        return page.update((x) => (x.preview ? S.stepPreview(x, 1) : S.step(x, 1)));
      case 'flip':
        return page.update(S.flip);
    }
  }

  /** Escape: drawing by picks, else the premove, else the preview, else the banner, else the selection goes. */
  private escape(s: PageState): void {
    const page = this.page;
    if (s.editor)
      return page.update((x) => (x.editor?.selected === -1 ? E.closeEditor(x, now()) : E.editorDeselect(x)));
    if (s.drawMode) return page.update(drawEscape);
    if (s.premove || (s.selected >= 0 && S.premovePosition(s))) return page.update((x) => S.setPremove(x, null));
    if (s.preview) return page.update(S.exitPreview);
    if (!page.dom.banner.hidden) return page.closeBanner();
    return page.update((x) => S.select(x, -1));
  }

  /** One key stroke is easily made by mistake: the key asks first (the button does not). */
  private takeBack(s: PageState): void {
    if (S.takeBack(s, now()) === s) return;
    void this.page.ask('Take back the last move?', 'Take back').then((yes) => {
      if (yes) this.page.update((x) => S.takeBack(x, now()));
    });
  }

  /**
   * The board editor's keys on the board: a KFEN letter places its piece at the cursor (else on the
   * selected square), Delete or Backspace removes it. True when the key was the editor's.
   */
  private editorKey(key: string): boolean {
    const s = this.page.state;
    const e = s.editor;
    if (!e) return false;
    const sq = s.cursor >= 0 ? s.cursor : e.selected;
    if (key === 'Delete' || key === 'Backspace') {
      if (sq >= 0) this.page.update((x) => E.editorRemove(x, sq));
      return true;
    }
    if (key.length !== 1 || sq < 0) return false;
    const next = E.editorPlaceLetter(s, sq, key);
    if (next === s) return false;
    this.page.update(() => next);
    return true;
  }

  private onKey(e: KeyboardEvent): void {
    const dom = this.page.dom;
    if (!dom.dialog.hidden) return;
    const t = e.target as HTMLElement;
    const inField = !!t.closest('input, textarea, select');
    if (!inField && !e.ctrlKey && !e.metaKey && !e.altKey && e.key.length <= 12 && this.page.skipHold()) {
      e.preventDefault();
      return;
    }
    if (t.closest('#lines') && (e.key === 'Enter' || e.key === ' ')) {
      const li = t.closest('[data-line]') as HTMLElement | null;
      if (li) this.page.update((x) => S.startPreview(x, Number(li.dataset.line)));
      e.preventDefault();
      return;
    }
    if (this.page.state.editor && t === dom.board && !e.ctrlKey && !e.metaKey && !e.altKey && this.editorKey(e.key)) {
      e.preventDefault();
      return;
    }
    // The board's cursor is for keyboard play: the board reached by Tab, or ↑ ↓ Enter Space on it.
    // After a click on the board, ← → still step through the moves (as on lichess).
    if (t === dom.board && !this.playing && STARTS_KEYBOARD_PLAY.has(e.key)) this.playing = true;
    const a = keyAction({
      key: e.key,
      modifier: e.ctrlKey || e.metaKey || e.altKey,
      onBoard: t === dom.board && this.playing,
      inField,
      onButton: t.tagName === 'BUTTON' || !!t.closest('[role=button]'),
      drawing: drawingOn(this.page.state),
    });
    if (!a) return;
    e.preventDefault();
    this.run(a);
  }
}
