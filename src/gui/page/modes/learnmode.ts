/**
 * "Learn from your mistakes" on the page (docs/gui.md), as lichess has it: after a review, the
 * person's own mistakes and blunders come back one by one as tasks. The board shows the game up
 * to the position before the mistake; the person tries a move, Thoth scores it as the review
 * scores a move (learn.ts judges it by the review's rule), and the page says "Good move" or
 * "You can do better" (the move is taken back). View the solution plays the review's best move.
 * Exit brings back the reviewed game exactly as it was (the state is kept, storage keeps it).
 */
import type { Score } from '../state/evaluation';
import type { InfoLine } from '../../../core/info';
import type { EngineClient } from '../engine/engine-client';
import type { ModeSearch } from '../engine/searches';
import type { ModeHost, PageMode } from './mode';
import { endedTry, goodTry, mistakesToLearn, type Mistake } from '../state/learn';
import { saveGame, type SavedGame } from '../state/persist';
import { REVIEW_DEPTH, reviewGo, reviewOptions } from '../../../analysis/review-method';
import { gameReview } from '../state/gamereview';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { addMoves, newTree, nodeAt, positionCommand } from '../state/tree';
import { Timers } from './timers';
import { elementsById } from '../view/dom';

/** A try waiting for Thoth's score: the position before it and the move (the page's searches run it). */
interface LearnSearch {
  key: string;
  edition: string;
  position: string;
  move: string;
}

type Status = 'play' | 'checking' | 'good' | 'given' | 'done';

const now = (): number => performance.now();
const TAKE_BACK_MS = 900;
/** A refused try: Thoth's answer comes after this long, and the try is taken back this long after it. */
const ANSWER_MS = 700;
const ANSWER_SHOWN_MS = 1800;

export class LearnMode implements PageMode {
  private kept: PageState | null = null;
  private list: Mistake[] = [];
  private at = 0;
  private status: Status = 'play';
  private found = 0;
  private tries = 0;
  private pending: LearnSearch | null = null;
  private own = false;
  private readonly timers = new Timers();
  private readonly el: Record<string, HTMLElement>;

  constructor(
    private readonly host: ModeHost,
    private readonly doc: Document = document,
  ) {
    this.el = elementsById(doc, [
      'learn-offer',
      'btn-learn',
      'card-learn',
      'ln-progress',
      'ln-task',
      'ln-msg',
      'ln-solution',
      'ln-next',
      'ln-exit',
    ]);
    this.el['btn-learn'].onclick = () => this.start();
    this.el['ln-solution'].onclick = () => this.giveUp();
    this.el['ln-next'].onclick = () => this.show(this.at + 1);
    this.el['ln-exit'].onclick = () => this.exit();
  }

  get learning(): boolean {
    return this.kept !== null;
  }

  /** The reviewed game while its mistakes are on the board (what storage keeps meanwhile), or null. */
  keptGame(): SavedGame | null {
    return this.kept ? saveGame(this.kept, now()) : null;
  }

  /** The reviewed game, while its mistakes are on the board: what the page's records give meanwhile. */
  recordState(): PageState | null {
    return this.kept;
  }

  /** The try Thoth should score now, or null. */
  search(): ModeSearch | null {
    const tried = this.learning ? this.pending : null;
    if (!tried) return null;
    return { key: `learn|${tried.key}`, start: (engine, done) => this.startSearch(engine, tried, done) };
  }

  start(): void {
    const s = this.host.state();
    const list = mistakesToLearn(s);
    if (list.length === 0) return;
    this.kept = s;
    this.list = list;
    this.found = 0;
    this.show(0);
  }

  /** The k-th mistake's position on the board (or, past the last, the count). */
  private show(k: number): void {
    this.timers.cancel();
    this.pending = null;
    this.at = k;
    const m = this.list[k];
    if (!m) {
      this.status = 'done';
      const n = this.list.length;
      this.say(
        `Done: you found a better move for ${this.found} of your ${n} mistake${n === 1 ? '' : 's'}. Exit goes back to the game.`,
      );
      this.render();
      return;
    }
    this.status = 'play';
    this.setBoard(m, []);
    this.say('');
    this.render();
  }

  /** The game up to the mistake's position, with `extra` moves after it, as a two-player board without clocks. */
  private setBoard(m: Mistake, extra: string[]): void {
    const kept = this.kept;
    if (!kept) return;
    const t = newTree(kept.tree.edition, kept.tree.startKfen);
    if (!t.ok) return;
    const line = addMoves(t.value, [], [...m.moves, ...extra]);
    if (!line.ok) return;
    this.ownUpdate((x) => ({
      ...S.newGame(S.setMode(x, 'humans', now()), line.value.tree, { now: now() }),
      clock: null,
      flipped: m.side === 1,
      message: '',
      bannerClosed: true,
    }));
  }

  giveUp(): void {
    const m = this.list[this.at];
    if (!m || this.status === 'done') return;
    this.timers.cancel();
    this.pending = null;
    this.status = 'given';
    this.setBoard(m, [m.best]);
    this.say(`The best was ${m.best} (you played ${m.played}${m.mark}).`);
    this.render();
  }

  exit(): void {
    this.timers.cancel();
    const kept = this.kept;
    this.kept = null;
    this.pending = null;
    this.list = [];
    if (kept) this.ownUpdate(() => kept);
    this.render();
  }

  /** Called by the controller after every transition: judges the move the person tried. */
  observe(before: PageState, after: PageState): void {
    if (!this.kept || this.own) return;
    const m = this.list[this.at];
    if (after.mode !== 'humans' || after.tree.startKfen !== this.kept.tree.startKfen) {
      // the person started something else (a link, an import): the lesson is left, and the game with it
      this.timers.cancel();
      this.kept = null;
      this.pending = null;
      this.render();
      return;
    }
    const len = S.gameLength(after);
    if (!m || len !== S.gameLength(before) + 1) return;
    if (this.status !== 'play' || len !== m.index + 1) {
      // a move after the tried one (or while a try is checked): not part of the task, taken back
      this.timers.later(() => this.ownUpdate((x) => S.takeBack(x, now())), 0);
      return;
    }
    const node = nodeAt(after.tree, S.endPath(after));
    if (!node) return;
    if (node.ply.text === m.best) return this.judged(true, true);
    const ended = endedTry(m, S.endPosition(after));
    if (ended)
      return this.judged(goodTry(m, ended), false, {
        why: `${node.ply.text} ${ended.kind === 'mate' && ended.value < 0 ? 'hits your own Pharaoh' : 'ends the game in a draw'}`,
      });
    this.status = 'checking';
    this.tries++;
    this.pending = {
      key: `${m.index}|${this.tries}|${node.ply.text}`,
      edition: after.tree.edition,
      position: positionCommand(after.tree, S.endPath(after).slice(0, -1)),
      move: node.ply.text,
    };
    this.say(`Thoth looks at ${node.ply.text}…`);
    this.render();
  }

  /**
   * Thoth scores the try as the review scores a move: the position before it (the one the review
   * scored for its best move), searched for the try alone (`searchmoves`) by the review's method
   * (src/analysis/review-method.ts). `done` tells whether the search is still the page's job.
   */
  private startSearch(engine: EngineClient, tried: LearnSearch, done: () => boolean): void {
    const options: Record<string, string> = { UCI_Variant: tried.edition, ...reviewOptions() };
    if (engine.hasOption('UCI_LimitStrength')) options.UCI_LimitStrength = 'false';
    let last: InfoLine | null = null;
    engine.search({
      options,
      newGame: true,
      position: tried.position,
      go: reviewGo(REVIEW_DEPTH, tried.move),
      onInfo: (i) => {
        if (i.multipv === 1 && (i.bound === undefined || i.bound === 'exact')) last = i;
      },
      onBestmove: () => {
        const said = last as InfoLine | null;
        // the line Thoth searched is the try then its answer: the refutation, shown if refused
        if (done()) this.scored(tried.key, said ? said.score : { kind: 'cp', value: 0 }, said?.pv[1]);
      },
    });
  }

  /** Thoth's score of the try, from the mover's point of view, and its answer to it (its line's next move). */
  private scored(key: string, score: Score, answer?: string): void {
    if (!this.pending || this.pending.key !== key) return;
    const m = this.list[this.at];
    const tried = this.pending.move;
    this.pending = null;
    if (m) this.judged(goodTry(m, score), false, { tried, answer });
  }

  /**
   * The try judged (`best`: it was the review's best move). A refused one gets its reason: a try
   * that ends the game says how (`why`); another is answered as a puzzle answers a wrong move,
   * Thoth's reply (`answer`, its line's next move) played after it on the board, then both are
   * taken back.
   */
  private judged(good: boolean, best: boolean, refused: { why?: string; tried?: string; answer?: string } = {}): void {
    const m = this.list[this.at];
    if (!m) return;
    const { why, tried, answer } = refused;
    this.status = good ? 'good' : 'play';
    if (good) {
      this.found++;
      const then = this.at + 1 < this.list.length ? ' Next goes on to your next mistake.' : '';
      this.say(`Good move.${best ? '' : ` The review's best was ${m.best}.`}${then}`);
    } else if (tried && answer && this.legalAfter(m, [tried, answer])) {
      this.say(`You can do better: ${answer} answers ${tried}. Try another move.`, true);
      this.timers.later(() => {
        this.setBoard(m, [tried, answer]);
        this.timers.later(() => this.setBoard(m, []), ANSWER_SHOWN_MS);
      }, ANSWER_MS);
    } else {
      this.say(`You can do better${why ? `: ${why}` : ''}. Try another move.`, true);
      this.timers.later(() => this.setBoard(m, []), TAKE_BACK_MS);
    }
    this.render();
  }

  /** True when `extra` moves are legal after the mistake's position. */
  private legalAfter(m: Mistake, extra: string[]): boolean {
    const kept = this.kept;
    const t = kept ? newTree(kept.tree.edition, kept.tree.startKfen) : null;
    return t?.ok === true && addMoves(t.value, [], [...m.moves, ...extra]).ok;
  }

  // ---- drawing -------------------------------------------------------------------------------

  render(): void {
    const s = this.host.state();
    const offer = !this.learning && s.mode === 'analysis' && gameReview(s) !== null;
    this.el['learn-offer'].hidden = !offer;
    if (offer) {
      const n = mistakesToLearn(s).length;
      const b = this.el['btn-learn'] as HTMLButtonElement;
      b.disabled = n === 0;
      b.textContent = n === 0 ? 'No mistakes of yours to learn from' : `Learn from your mistakes (${n})`;
    }
    const card = this.el['card-learn'];
    card.hidden = !this.learning;
    if (this.learning) this.doc.body.dataset.learn = this.status;
    else delete this.doc.body.dataset.learn;
    const m = this.list[this.at];
    card.dataset.status = this.learning ? this.status : '';
    card.dataset.ply = m ? String(m.index) : '';
    card.dataset.found = String(this.found);
    this.el['ln-progress'].textContent = this.learning
      ? this.status === 'done'
        ? `${this.list.length} of ${this.list.length}`
        : `${this.at + 1} of ${this.list.length}`
      : '';
    this.el['ln-task'].textContent = m
      ? `You played ${m.label} ${m.played}${m.mark} (${m.mark === '??' ? 'a blunder' : 'a mistake'}). Find a better move.`
      : '';
    (this.el['ln-solution'] as HTMLButtonElement).disabled = !m || this.status === 'given';
    (this.el['ln-next'] as HTMLButtonElement).hidden = !m || (this.status !== 'good' && this.status !== 'given');
    (this.el['ln-next'] as HTMLButtonElement).textContent = this.at + 1 < this.list.length ? 'Next' : 'Finish';
    // under the board: what to do now, once the try is made (while it is due, the page's own hint)
    const hint = this.doc.getElementById('hint');
    if (hint && this.learning && this.status !== 'play') {
      hint.classList.remove('error');
      hint.textContent =
        this.status === 'checking'
          ? 'Thoth looks at your move…'
          : this.status === 'done'
            ? 'Exit brings back the reviewed game.'
            : `${this.at + 1 < this.list.length ? 'Next goes on to your next mistake' : 'Finish counts what you found'}; Exit brings back the reviewed game.`;
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private say(text: string, wrong = false): void {
    this.el['ln-msg'].textContent = text;
    this.el['ln-msg'].classList.toggle('error', wrong);
  }

  private ownUpdate(f: (s: PageState) => PageState): void {
    this.own = true;
    try {
      this.host.update(f);
    } finally {
      this.own = false;
    }
  }
}
