/**
 * The page's controls wired to the controller, one function a panel: the toolbar under the board,
 * the banner and the draw offer, the game card (modes, the new game form, the options), analysis
 * and review, the moves, Import/Export (KFEN and records), and the engine's status pill. Each
 * control runs a transition of state/state.ts through the controller's update, or one of its actions.
 */
import { toKfen, type EditionId } from '../../core/index';
import type { Dom } from './view/dom';
import type { EngineClient } from './engine/engine-client';
import * as R from './state/gamereview';
import { graphIndexAt } from './view/graph';
import type { Keyboard } from './view/keyboard';
import { typedMove } from './state/typed-move';
import { importRecord, loadKfen, type OpenHost } from './open-game';
import { addRematchButton } from './view/game-card';
import { engineStatus, ioMessage } from './view/panels';
import { download, pictureOf, type PictureKind } from './view/export-picture';
import { CUSTOM_SETUP } from './view/settings-form';
import { rematch } from './state/rematch';
import type { Searches } from './engine/searches';
import { clearOnlyMoves, setOnlyMoves, toggleOnlyMove } from './state/only-moves';
import * as S from './state/state';
import type { PageState, Settings } from './state/state';
import type { DangerView } from './state/state-types';
import * as E from './state/editor';
import { encodeLink, linkUrl } from './state/link';
import { toolFromKey } from './view/editor-card';

const now = (): number => performance.now();

/** What the controls need of the page (the controller). */
export interface WireHost extends OpenHost {
  readonly engine: EngineClient;
  readonly searches: Searches;
  readonly keyboard: Keyboard;
  update(f: (s: PageState) => PageState): void;
  confirmMoves(): boolean;
  ask(text: string, yes: string): Promise<boolean>;
  newGame(): void;
  closeBanner(): void;
  startReview(): void;
  changeMode(mode: S.Mode): Promise<void>;
  setSettings(change: Partial<Settings>): void;
  /** The record (PGN) of the game (Learn's reviewed game while its tasks are on the board). */
  gameRecord(): string;
}

/** Wires every control of the page. */
export function wirePage(page: WireHost): void {
  wireMoveBox((text) => {
    let played = false;
    page.update((x) => {
      const r = typedMove(x, text, now());
      played = r.played;
      return r.state;
    });
    return played;
  });
  wireToolbar(page);
  wireBanner(page);
  wireGameCard(page);
  wireAnalysis(page);
  wireMoves(page);
  wireRecords(page);
  wireStatus(page);
  wireEditor(page);
  // A right-click cancels a premove (as on lichess).
  page.dom.board.addEventListener('contextmenu', () => {
    if (page.state.premove || (page.state.selected >= 0 && S.premovePosition(page.state)))
      page.update((x) => S.setPremove(x, null));
  });
  page.keyboard.wire();
}

/** The buttons under the board: the moves' steps, rotations, take-back, flip, resign, draw. */
function wireToolbar(page: WireHost): void {
  const d = page.dom;
  const key = page.keyboard;
  d.navFirst.onclick = () => key.run('first');
  d.navPrev.onclick = () => key.run('prev');
  d.navNext.onclick = () => key.run('next');
  d.navLast.onclick = () => key.run('last');
  d.rotCw.onclick = () => page.update((x) => S.rotateSelected(x, '+', now(), page.confirmMoves()));
  d.rotCcw.onclick = () => page.update((x) => S.rotateSelected(x, '-', now(), page.confirmMoves()));
  d.stack.onclick = () => key.run('stack-toggle');
  d.takeBack.onclick = () => page.update((x) => S.takeBack(x, now()));
  d.flip.onclick = () => key.run('flip');
  d.danger.onclick = () => key.run('danger');
  d.resign.onclick = async () => {
    if (await page.ask('Resign this game?', 'Resign')) page.update((x) => S.resign(x, now()));
  };
  d.draw.onclick = () => page.update(S.offerDraw);
  d.claim.onclick = () => page.update((x) => S.claimDraw(x, now()));
}

/** The game's end (new game, rematch, review, close) and Thoth's draw offer. */
function wireBanner(page: WireHost): void {
  const d = page.dom;
  d.offerAccept.onclick = () => page.update((x) => S.acceptDraw(x, now()));
  d.offerDecline.onclick = () => page.update(S.declineDraw);
  d.bannerNew.onclick = () => {
    page.newGame();
    d.board.focus();
  };
  addRematchButton(d).onclick = () => {
    page.startGame((x) => rematch(x, now()));
    d.board.focus();
  };
  d.bannerClose.onclick = () => page.closeBanner();
  d.bannerReview.onclick = () => page.startReview();
}

/** The game card: the modes, the new game form, and the options. */
function wireGameCard(page: WireHost): void {
  const d = page.dom;
  for (const r of d.modes) {
    r.onchange = () => {
      if (r.checked) void page.changeMode(r.value as S.Mode);
    };
  }
  d.newGameForm.onsubmit = (e) => {
    e.preventDefault();
    page.newGame();
  };
  d.edition.onchange = () => {
    const edition = d.edition.value as EditionId;
    page.setSettings({ edition });
  };
  d.setup.onchange = () => {
    // "Custom position" names the board's own start; only the setups are for New game
    if (d.setup.value !== CUSTOM_SETUP) page.update((x) => S.chooseSetup(x, d.setup.value as Settings['setup']));
  };
  d.side.onchange = () => page.update((x) => S.chooseSide(x, d.side.value as Settings['side']));
  d.level.onchange = () => page.setSettings({ level: Number(d.level.value) });
  d.tc.onchange = () => page.setSettings({ tc: d.tc.value });
  d.optThinking.onchange = () => page.setSettings({ showThinking: d.optThinking.checked });
  d.optLasers.onchange = () => page.setSettings({ showLasers: d.optLasers.checked });
  d.optDanger.onchange = () => page.setSettings({ danger: d.optDanger.value as DangerView });
  d.optAim.onchange = () => page.setSettings({ shotPreview: d.optAim.checked });
  d.optConfirm.onchange = () => page.setSettings({ confirmMoves: d.optConfirm.checked });
  d.optSound.onchange = () => page.setSettings({ sound: d.optSound.checked });
}

/** Analysis and review: the lines and their preview, the graph, the review's button. */
function wireAnalysis(page: WireHost): void {
  const d = page.dom;
  d.review.onclick = () => page.startReview();
  d.graph.onclick = (e) => {
    const svg = d.graph.querySelector('svg');
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    const n = S.gameLength(page.state) + 1;
    const i = graphIndexAt((e.clientX - box.left) / Math.max(1, box.width), n);
    page.update((x) => S.goTo(x, new Array<number>(i).fill(0)));
  };
  d.multipv.onchange = () => page.update((x) => S.exitPreview(S.setSettings(x, { multipv: Number(d.multipv.value) })));
  const toggleWin = (): void => page.setSettings({ showWin: !page.state.settings.showWin });
  d.winChance.onclick = toggleWin;
  // the eval bar's label too (a mouse's shortcut: the button is the keyboard's way)
  d.evalbar.onclick = toggleWin;
  d.analyse.onclick = () => {
    page.searches.again();
    page.update((x) => S.setAnalysing(x, !x.analysing));
  };
  d.lines.onclick = (e) => {
    const only = (e.target as HTMLElement).closest('button.only') as HTMLElement | null;
    if (only?.dataset.move) return page.update((x) => toggleOnlyMove(x, only.dataset.move as string));
    const li = (e.target as HTMLElement).closest('[data-line]') as HTMLElement | null;
    if (li) page.update((x) => S.startPreview(x, Number(li.dataset.line)));
  };
  // Analyse only the moves picked: typed (Enter), or from the lines (◎ above); All moves clears them
  d.onlyForm.onsubmit = (e) => {
    e.preventDefault();
    page.update((x) => setOnlyMoves(x, d.onlyInput.value));
    if (page.state.message === '') d.onlyInput.blur();
  };
  d.onlyClear.onclick = () => {
    d.onlyInput.value = '';
    page.update(clearOnlyMoves);
  };
  d.pvPrev.onclick = () => page.update((x) => S.stepPreview(x, -1));
  d.pvNext.onclick = () => page.update((x) => S.stepPreview(x, 1));
  d.pvExit.onclick = () => page.update(S.exitPreview);
}

/** The moves' list and its variation tools. */
function wireMoves(page: WireHost): void {
  const d = page.dom;
  // The review keeps what both lines share (gamereview.ts).
  d.promote.onclick = () => page.update((x) => R.keepSharedReview(S.promoteLine(x), x.review));
  d.deleteLine.onclick = () => page.update((x) => R.keepSharedReview(S.deleteFromHere(x), x.review));
  d.moves.onclick = (e) => {
    const b = (e.target as HTMLElement).closest('[data-path]') as HTMLElement | null;
    if (b) page.update((x) => S.goTo(x, b.dataset.path ? b.dataset.path.split('.').map(Number) : []));
  };
}

/** Import/Export: the position's KFEN, the game's record. */
function wireRecords(page: WireHost): void {
  const d: Dom = page.dom;
  d.kfenLoad.onclick = () => loadKfen(page, d.kfen.value);
  d.kfen.onkeydown = (e) => {
    if (e.key === 'Enter') loadKfen(page, d.kfen.value);
  };
  d.kfenCopy.onclick = () => {
    const v = toKfen(S.viewPosition(page.state));
    void navigator.clipboard?.writeText(v).then(
      () => ioMessage(d, 'KFEN copied.'),
      () => ioMessage(d, 'Select the text and copy it.'),
    );
  };
  /** The game's record in the box, and the Download link's file made of it. */
  const exported = (): void => {
    const text = page.gameRecord();
    d.record.value = text;
    const a = d.recDownload;
    if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.hidden = false;
  };
  d.recExport.onclick = () => {
    exported();
    ioMessage(d, 'The game is in the box above; Download saves it as a file.');
  };
  // Download saves the game as it is now, not as it was at Export (the link's file is made again
  // before the browser follows it).
  d.recDownload.onclick = () => exported();
  d.recImport.onclick = () => importRecord(page, d.record.value);
  const picture = (kind: PictureKind): void => {
    const f = pictureOf(page.state, kind);
    download(document, f);
    ioMessage(d, `${f.name} saved (${Math.round(f.bytes.length / 1024)} KB).`);
  };
  d.picPng.onclick = () => picture('png');
  d.picSvg.onclick = () => picture('svg');
  d.picGif.onclick = () => picture('gif');
}

/** The engine's status pill: restart a stopped engine, or connect again (the server was gone, or had no engine for this tab). */
function wireStatus(page: WireHost): void {
  page.dom.statusAction.onclick = () => {
    const kind = engineStatus(page.engine).action?.kind;
    if (kind === 'restart') {
      page.searches.reset();
      page.engine.restart();
    } else if (kind === 'reclaim') page.engine.connect();
  };
}

/** Wires the box (`#move-form`, `#move-input`): Enter asks `play`; a move played empties the box. */
function wireMoveBox(play: (text: string) => boolean): void {
  const form = document.getElementById('move-form') as HTMLFormElement | null;
  const input = document.getElementById('move-input') as HTMLInputElement | null;
  if (!form || !input) return;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (play(input.value)) input.value = '';
    else input.select();
  });
}

/** The board editor's card (view/editor-card.ts; its transitions are state/editor.ts). */
function wireEditor(page: WireHost): void {
  const d = page.dom;
  const say = (text: string, error = false): void => {
    d.edMsg.textContent = text;
    d.edMsg.classList.toggle('error', error);
  };
  d.btnEditor.onclick = () => {
    say('');
    page.update((x) => E.openEditor(x, now()));
  };
  d.edEdition.onchange = () =>
    page.update((x) =>
      E.editorStartFrom(x, { kind: 'setup', edition: d.edEdition.value as EditionId, setup: 'classic' }),
    );
  d.edStart.onchange = () => {
    const v = d.edStart.value;
    const edition = (page.state.editor?.edition ?? 'khet2') as EditionId;
    const start: E.EditorStart | null =
      v === 'current'
        ? { kind: 'current' }
        : v === 'empty'
          ? { kind: 'empty', edition }
          : v.startsWith('setup:')
            ? { kind: 'setup', edition, setup: v.slice(6) as Settings['setup'] }
            : null;
    if (start) page.update((x) => E.editorStartFrom(x, start));
  };
  d.edPalette.onclick = (e) => {
    const b = (e.target as Element).closest<HTMLButtonElement>('[data-tool]');
    const tool = b?.dataset.tool ? toolFromKey(b.dataset.tool) : null;
    if (tool) page.update((x) => E.editorTool(x, tool));
  };
  d.edRotCw.onclick = () => page.update((x) => E.editorRotate(x, '+'));
  d.edRotCcw.onclick = () => page.update((x) => E.editorRotate(x, '-'));
  for (const r of d.edSides)
    r.onchange = () => {
      if (r.checked) page.update((x) => E.editorSide(x, Number(r.value)));
    };
  d.edKfen.onchange = () => page.update((x) => E.editorLoadKfen(x, d.edKfen.value));
  d.edKfen.onkeydown = (e) => {
    if (e.key === 'Enter') d.edKfen.blur();
  };
  d.edCancel.onclick = () => {
    page.update((x) => E.closeEditor(x, now()));
    d.board.focus();
  };
  d.edAnalyse.onclick = () =>
    void page.abandonThen('Analysing the position set up', () => page.startGame((x) => E.editorAnalyse(x, now())));
  d.edContinue.onclick = () => page.startGame((x) => E.editorContinue(x, now()));
  d.edYou.onchange = () => {
    d.edYou.dataset.value = d.edYou.value;
  };
  d.edPlay.onclick = () => {
    const choice: E.PlayChoice = {
      side: d.edYou.value as Settings['side'],
      tc: d.edTc.value,
      level: Number(d.edLevel.value),
    };
    void page.abandonThen('Playing the position set up', () => page.startGame((x) => E.editorPlay(x, choice, now())));
  };
  d.edLink.onclick = async () => {
    const e = page.state.editor;
    if (!e) return;
    const href = linkUrl(location.href, await encodeLink({ kind: 'kfen', edition: e.edition, kfen: E.editorKfen(e) }));
    try {
      await navigator.clipboard.writeText(href);
      say('Link copied.');
    } catch {
      say(`The browser refused to copy; the link: ${href}`);
    }
  };
}
