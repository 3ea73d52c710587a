/**
 * *Practice from here* on the page (docs/gui.md, "Practice and watch"): from the analysis board's
 * shown position the person plays on against Thoth (level, colour, clock), and each of their moves
 * is judged as *Review the game* judges a move (state/practice.ts: the review's searches and its
 * judge), the mark and "Best was …" said at once while the game goes on; at the end, their
 * accuracy and marks. Thoth's reply waits for the judgement (its clock stands still meanwhile).
 * *Back to the analysis* brings the analysis board back with the practice game as a line of its
 * tree, marks and all.
 */
import type { EngineClient } from '../engine/engine-client';
import { reviewSearch, type ModeSearch } from '../engine/searches';
import {
  holdClockForJudging,
  markPracticeTree,
  nextPracticeStep,
  practiceBackToAnalysis,
  practiceBest,
  practiceDone,
  practiceMoves,
  practicePlayed,
  practiceReview,
  practiceSummary,
  startPractice,
  practiceVerdict,
  type Practice,
  type PracticeStep,
} from '../state/practice';
import { saveGame, type SavedGame } from '../state/persist';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { mainlinePath, positionCommand } from '../state/tree';
import { elementsById } from '../view/dom';
import { copyOptions } from '../view/editor-card';
import { OwnUpdates, type ModeHost, type PageMode } from './mode';

const now = (): number => performance.now();

export class PracticeMode implements PageMode {
  /** The analysis board practice began from, while practising. */
  private kept: PageState | null = null;
  private practice: Practice | null = null;
  private readonly own: OwnUpdates;
  /** Counts practices, so that a search of the last one never counts for this one. */
  private serial = 0;
  private readonly el: Record<string, HTMLElement>;

  constructor(
    private readonly host: ModeHost,
    private readonly doc: Document = document,
  ) {
    this.own = new OwnUpdates(host);
    this.el = elementsById(doc, [
      'practice-offer',
      'pr-side',
      'pr-level',
      'pr-tc',
      'btn-practice',
      'card-practice',
      'pr-info',
      'pr-verdict',
      'pr-summary',
      'pr-back',
      'sel-level',
      'sel-tc',
    ]);
    this.el['btn-practice'].onclick = () => this.start();
    this.el['pr-back'].onclick = () => this.back();
    this.el['pr-side'].onchange = () => {
      this.el['pr-side'].dataset.value = (this.el['pr-side'] as HTMLSelectElement).value;
    };
  }

  get practising(): boolean {
    return this.kept !== null;
  }

  /** The analysis board with the practice line so far (what storage keeps meanwhile), or null. */
  keptGame(): SavedGame | null {
    const p = this.practice;
    if (!this.kept || !p) return null;
    return saveGame(practiceBackToAnalysis(this.kept, this.host.state(), p), now());
  }

  /** The judging search the practice needs now, or null. */
  search(): ModeSearch | null {
    const p = this.practice;
    if (!this.kept || !p) return null;
    const step = nextPracticeStep(p);
    if (!step) return null;
    const serial = this.serial;
    return {
      key: `practice|${serial}|${step.index}|${step.only ?? ''}`,
      start: (engine, done) => this.startSearch(engine, serial, step, done),
    };
  }

  start(): void {
    const s = this.host.state();
    if (s.mode !== 'analysis' || s.editor) return;
    const side = Number((this.el['pr-side'] as HTMLSelectElement).value) === 1 ? 1 : 0;
    const started = startPractice(
      S.exitPreview(s),
      {
        side,
        level: Number((this.el['pr-level'] as HTMLSelectElement).value) || s.settings.level,
        tc: (this.el['pr-tc'] as HTMLSelectElement).value,
      },
      now(),
    );
    if (!started) return;
    this.serial++;
    this.kept = s;
    this.practice = started.practice;
    this.say('');
    this.own.run(() => started.state);
  }

  /** *Back to the analysis*: the board practice began from, the practice game a line of its tree. */
  back(): void {
    const kept = this.kept;
    const p = this.practice;
    this.kept = null;
    this.practice = null;
    if (kept && p) this.own.run((x) => practiceBackToAnalysis(kept, markPracticeTree(x, p), p));
    this.render();
  }

  observe(before: PageState, after: PageState): void {
    const p = this.practice;
    if (!this.kept || !p || this.own.mine) return;
    if (after.mode === 'analysis' && after.tree === before.tree && !(after.review && after.review !== before.review)) {
      // Analysis picked: the analysis board comes back, the practice game a line of it
      this.back();
      return;
    }
    if (after.mode !== 'engine' || after.tree.startKfen !== before.tree.startKfen || S.gameLength(after) < p.from) {
      // the person started something else (a new game, a link, a review of the practice game): the practice is left
      this.kept = null;
      this.practice = null;
      this.render();
      return;
    }
    if (after.tree !== before.tree) this.changed(practiceMoves(p, after));
  }

  /** The practice's moves or judgements changed: kept, the marks written, Thoth's clock held or let go. */
  private changed(p: Practice): void {
    this.practice = p;
    const judging = nextPracticeStep(p) !== null;
    // a new state even when the marks and the clock stay: the update loop then asks for the next search and draws
    this.own.run((x) => ({ ...holdClockForJudging(markPracticeTree(x, p), judging, now()) }));
  }

  /** Thoth judges the move as the review does: the position before it, then the move alone. */
  private startSearch(engine: EngineClient, serial: number, step: PracticeStep, done: () => boolean): void {
    const s = this.host.state();
    const position = positionCommand(s.tree, mainlinePath(step.index));
    reviewSearch(engine, s.tree.edition, position, step.only, (score, best) => {
      if (!done() || serial !== this.serial || !this.practice) return;
      this.changed(
        step.only === undefined
          ? practiceBest(this.practice, step.index, score, best)
          : practicePlayed(this.practice, step.index, score),
      );
    });
  }

  // ---- drawing -------------------------------------------------------------------------------

  render(): void {
    const s = this.host.state();
    const offer = !this.practising && s.mode === 'analysis' && !s.editor;
    this.el['practice-offer'].hidden = !offer;
    if (offer) {
      const names = S.colorNames(s);
      const side = this.el['pr-side'] as HTMLSelectElement;
      const toMove = S.viewPosition(s).side;
      side.innerHTML = [0, 1].map((c) => `<option value="${c}">${names[c]}</option>`).join('');
      side.value = side.dataset.value ?? String(toMove);
      copyOptions(
        this.el['pr-level'] as HTMLSelectElement,
        this.el['sel-level'] as HTMLSelectElement,
        String(s.settings.level),
      );
      copyOptions(this.el['pr-tc'] as HTMLSelectElement, this.el['sel-tc'] as HTMLSelectElement, '');
      const over = S.gameStatusOf(S.viewPosition(s)) !== 'ongoing';
      (this.el['btn-practice'] as HTMLButtonElement).disabled = over || !s.engineAvailable;
    }
    const card = this.el['card-practice'];
    card.hidden = !this.practising;
    const p = this.practice;
    if (!this.practising || !p) {
      delete this.doc.body.dataset.practice;
      return;
    }
    const judging = nextPracticeStep(p) !== null;
    const done = practiceDone(s, p);
    this.doc.body.dataset.practice = done ? 'done' : judging ? 'judging' : 'play';
    card.dataset.status = this.doc.body.dataset.practice;
    this.el['pr-info'].textContent = `${S.colorNames(s)[p.side]} against Thoth`;
    const judged = practiceReview(p);
    const last = judged ? judged.moves.length - 1 : -1;
    const lastMove = judged?.moves[last];
    const lastPly = judged?.review.plies[last];
    card.dataset.judged = String(last + 1);
    card.dataset.mark = lastPly?.mark ?? '';
    if (judging) this.say(`Thoth judges ${p.moves[p.moves.length - 1]?.move ?? 'your move'}…`);
    else if (lastMove && lastPly) {
      this.say(practiceVerdict(lastMove, lastPly), lastPly.mark !== '');
      // under the board too, while it is the latest of the person's moves (on a phone the card is below)
      const hint = this.doc.getElementById('hint');
      const latest = p.moves[p.moves.length - 1] === lastMove;
      if (hint && latest && !S.isOver(s) && !hint.textContent?.startsWith(lastMove.move))
        hint.textContent = `${lastMove.move}${lastPly.mark}: ${lastPly.mark ? `best was ${lastMove.bestMove}` : 'good'}. ${hint.textContent ?? ''}`;
    } else
      this.say(
        p.side === S.endPosition(s).side
          ? 'Your move: each one is judged as the review judges it.'
          : 'Thoth moves first.',
      );
    const summary = practiceSummary(p);
    this.el['pr-summary'].textContent =
      done || S.isOver(s)
        ? (summary?.text ?? 'You made no move.')
        : summary
          ? `So far: ${summary.text.replace(/^Your/, 'your')}`
          : '';
  }

  private say(text: string, wrong = false): void {
    this.el['pr-verdict'].textContent = text;
    this.el['pr-verdict'].classList.toggle('error', wrong);
  }
}
