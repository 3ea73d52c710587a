/**
 * The page's elements, looked up once and typed: every other module gets them from here, so a
 * missing or renamed element fails at start-up with its id, not later in some handler.
 */

type Ctor<T extends Element> = { new (): T; prototype: T };

function byId<T extends Element>(doc: Document, id: string, type: Ctor<T>): T {
  const e = doc.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  if (!(e instanceof type)) throw new Error(`#${id} is a ${e.tagName}, not a ${type.name}`);
  return e;
}

/** Elements by id, each looked up once: a mode's own card (puzzles, Learn from your mistakes). */
export function elementsById(doc: Document, ids: readonly string[]): Record<string, HTMLElement> {
  return Object.fromEntries(ids.map((id) => [id, byId(doc, id, HTMLElement)]));
}

export interface PlayerBar {
  root: HTMLElement;
  name: HTMLElement;
  lost: HTMLElement;
  clock: HTMLElement;
}

function playerBar(doc: Document, id: string): PlayerBar {
  const root = byId(doc, id, HTMLElement);
  const part = (cls: string): HTMLElement => {
    const e = root.querySelector(`.${cls}`);
    if (!(e instanceof HTMLElement)) throw new Error(`#${id} has no .${cls}`);
    return e;
  };
  return { root, name: part('name'), lost: part('lost'), clock: part('clock') };
}

/** The element finders of a document, each checking the element's type. */
function finders(doc: Document) {
  return {
    button: (id: string): HTMLButtonElement => byId(doc, id, HTMLButtonElement),
    select: (id: string): HTMLSelectElement => byId(doc, id, HTMLSelectElement),
    input: (id: string): HTMLInputElement => byId(doc, id, HTMLInputElement),
    el: (id: string): HTMLElement => byId(doc, id, HTMLElement),
  };
}

/** The board and what is around it: the status, the players, the banner, the offer, the toolbar. */
function boardParts(doc: Document) {
  const { button, el } = finders(doc);
  return {
    body: doc.body,
    status: el('engine-status'),
    statusAction: button('engine-action'),
    playerTop: playerBar(doc, 'player-top'),
    playerBottom: playerBar(doc, 'player-bottom'),
    evalbar: el('evalbar'),
    board: el('board'),
    banner: el('banner'),
    bannerTitle: el('banner-title'),
    bannerText: el('banner-text'),
    bannerNew: button('banner-new'),
    bannerReview: button('banner-review'),
    bannerClose: button('banner-close'),
    offer: el('offer'),
    offerText: el('offer-text'),
    offerAccept: button('offer-accept'),
    offerDecline: button('offer-decline'),
    navFirst: button('nav-first'),
    navPrev: button('nav-prev'),
    navNext: button('nav-next'),
    navLast: button('nav-last'),
    rotCcw: button('btn-rot-ccw'),
    rotCw: button('btn-rot-cw'),
    stack: button('btn-stack'),
    takeBack: button('btn-takeback'),
    draw: button('btn-draw'),
    claim: button('btn-claim'),
    resign: button('btn-resign'),
    flip: button('btn-flip'),
    danger: button('btn-danger'),
    hint: el('hint'),
    dangerWords: el('danger-words'),
  };
}

/** The game card (modes, the new game form), analysis and review, the moves. */
function cardParts(doc: Document) {
  const { button, select, el } = finders(doc);
  return {
    modes: Array.from(doc.querySelectorAll<HTMLInputElement>('input[name=mode]')),
    newGameForm: byId(doc, 'new-game', HTMLFormElement),
    edition: select('sel-edition'),
    setup: select('sel-setup'),
    side: select('sel-side'),
    level: select('sel-level'),
    tc: select('sel-tc'),
    newGame: button('btn-new'),
    analysisCard: el('card-analysis'),
    analysisInfo: el('an-info'),
    multipv: select('sel-multipv'),
    analyse: button('btn-analyse'),
    review: button('btn-review'),
    winChance: button('btn-winchance'),
    lines: el('lines'),
    onlyForm: byId(doc, 'only-form', HTMLFormElement),
    onlyInput: byId(doc, 'only-input', HTMLInputElement),
    onlyClear: button('only-clear'),
    onlyNote: el('only-note'),
    previewBar: el('preview-bar'),
    previewText: el('preview-text'),
    pvPrev: button('pv-prev'),
    pvNext: button('pv-next'),
    pvExit: button('pv-exit'),
    graph: el('graph'),
    reviewBox: el('review'),
    variationTools: el('variation-tools'),
    promote: button('btn-promote'),
    deleteLine: button('btn-delete'),
    thinking: el('thinking'),
    moves: el('moves'),
    notes: el('notes'),
    noteText: byId(doc, 'note-text', HTMLTextAreaElement),
    noteMarks: el('note-marks'),
    noteSigns: el('note-signs'),
    noteDraw: button('note-draw'),
    noteColors: el('note-colors'),
    noteClear: button('note-clear'),
    noteMsg: el('note-msg'),
  };
}

/** Import/Export, the options, the legend and the keys, the dialog. */
function ioParts(doc: Document) {
  const { button, input, el } = finders(doc);
  return {
    ioCard: byId(doc, 'card-io', HTMLDetailsElement),
    kfen: input('kfen'),
    kfenLoad: button('kfen-load'),
    kfenCopy: button('kfen-copy'),
    record: byId(doc, 'record', HTMLTextAreaElement),
    recExport: button('rec-export'),
    recImport: button('rec-import'),
    recDownload: byId(doc, 'rec-download', HTMLAnchorElement),
    picPng: button('pic-png'),
    picSvg: button('pic-svg'),
    picGif: button('pic-gif'),
    ioMsg: el('io-msg'),
    optThinking: input('opt-thinking'),
    optLasers: input('opt-lasers'),
    optDanger: byId(doc, 'opt-danger', HTMLSelectElement),
    optAim: input('opt-aim'),
    optConfirm: input('opt-confirm'),
    optSound: input('opt-sound'),
    legend: el('legend'),
    keys: el('keys'),
    dialog: el('dialog'),
    dialogText: el('dialog-text'),
    dialogYes: button('dialog-yes'),
    dialogNo: button('dialog-no'),
  };
}

/** The board editor's card (editor-card.ts) and the button that opens it. */
function editorParts(doc: Document) {
  const { button, select, input, el } = finders(doc);
  return {
    btnEditor: button('btn-editor'),
    editorCard: el('card-editor'),
    edEdition: select('ed-edition'),
    edStart: select('ed-start'),
    edPalette: el('ed-palette'),
    edRotCw: button('ed-rot-cw'),
    edRotCcw: button('ed-rot-ccw'),
    edSides: Array.from(doc.querySelectorAll<HTMLInputElement>('input[name=ed-side]')),
    edSideNames: [el('ed-side-0'), el('ed-side-1')],
    edProblems: el('ed-problems'),
    edKfen: input('ed-kfen'),
    edAnalyse: button('ed-analyse'),
    edContinue: button('ed-continue'),
    edLink: button('ed-link'),
    edCancel: button('ed-cancel'),
    edYou: select('ed-you'),
    edTc: select('ed-tc'),
    edLevel: select('ed-level'),
    edPlay: button('ed-play'),
    edMsg: el('ed-msg'),
  };
}

export function lookUpDom(doc: Document = document) {
  return { ...boardParts(doc), ...cardParts(doc), ...ioParts(doc), ...editorParts(doc) };
}

export type Dom = ReturnType<typeof lookUpDom>;
