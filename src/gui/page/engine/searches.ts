/**
 * Thoth's searches on the page, derived from the state: what Thoth should be doing is a function of
 * it (play a move against the person, a step of a review, a try in Learn from your mistakes, or
 * analysis), and `sync` starts that search, or stops the one no longer wanted. A search's answer
 * comes back as a transition of state/state.ts. The controller composes it (../controller.ts).
 */
import { plural } from '../../../core/plural';
import { legalMoves } from '../../../core/index';
import { REVIEW_DEPTH, reviewGo, reviewOptions } from '../../../analysis/review-method';
import { timeLeft } from '../state/clock';
import type { InfoLine } from '../../../core/info';
import type { Score } from '../../../core/score';
import type { EngineClient } from './engine-client';
import * as R from '../state/gamereview';
import {
  isFullStrength,
  levelGoCommand,
  levelOptions,
  levelsFor,
  MOVETIME_WITHOUT_CLOCK,
  thothPlayerName,
  type Level,
} from './levels';
import { analysisGo } from '../state/only-moves';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { positionCommand, type Path } from '../state/tree';

const now = (): number => performance.now();

interface Job {
  key: string;
  kind: 'play' | 'analyse' | 'review';
}

/** What the searches need of the page: its state, its transitions, its drawing. */
export interface SearchHost {
  state(): PageState;
  /** Replaces the state without the effects (the update that follows draws it). */
  put(s: PageState): void;
  update(f: (s: PageState) => PageState, how?: 'now' | 'soon'): void;
  scheduleRender(): void;
  /** The search a mode of the page wants (modes/mode.ts), which comes before the page's own; or null. */
  modeSearch(): ModeSearch | null;
}

/**
 * A search a mode of the page wants (a try in Learn from your mistakes): `key` names it (the same
 * key, the same search), and `start` runs it on the engine, asking `done` when the best move comes
 * whether the search is still the page's job. It counts as a review's search.
 */
export interface ModeSearch {
  key: string;
  start(engine: EngineClient, done: () => boolean): void;
}

/**
 * `Threads` for a search: every core at full strength (analysis, level 8, a watched game), one for
 * a limited level; and the server's full-strength `Hash` again after a review's (which has its own).
 */
export function strengthOptions(engine: EngineClient, full: boolean): Record<string, string> {
  const st = engine.strength;
  if (!st) return {};
  return {
    ...(engine.hasOption('Threads') ? { Threads: String(engine.threadsFor(full)) } : {}),
    ...(st.hashMb !== undefined && engine.hasOption('Hash') ? { Hash: String(st.hashMb) } : {}),
  };
}

/**
 * One search by the review's method (src/analysis/review-method.ts): `position` to the review's
 * depth, or its move `only` alone (`searchmoves`), on one thread from an empty table, for an
 * engine at full strength. `scored` gets the last exact score of the first line (the mover's view;
 * 0 when none came) and that line's first move: a review's step, a practice move's judgement.
 */
export function reviewSearch(
  engine: EngineClient,
  edition: string,
  position: string,
  only: string | undefined,
  scored: (score: Score, best: string | undefined) => void,
): void {
  const options: Record<string, string> = { UCI_Variant: edition, ...reviewOptions() };
  if (engine.hasOption('UCI_LimitStrength')) options.UCI_LimitStrength = 'false';
  let last: InfoLine | null = null;
  engine.search({
    options,
    newGame: true,
    position,
    go: reviewGo(REVIEW_DEPTH, only),
    onInfo: (i) => {
      if (i.multipv === 1 && (i.bound === undefined || i.bound === 'exact')) last = i;
    },
    onBestmove: () => {
      const said = last as InfoLine | null;
      scored(said ? said.score : { kind: 'cp', value: 0 }, said?.pv[0]);
    },
  });
}

export class Searches {
  /** The levels the engine offers (from its options once it is ready). */
  levels: Level[] = levelsFor(null);
  /** Counts games, so that a new game's search is never mistaken for the last one's. */
  gameSerial = 0;
  /** The search running for the state, and the last one that finished (not started again). */
  private job: Job | null = null;
  private finishedKey = '';

  constructor(
    private readonly host: SearchHost,
    private readonly engine: EngineClient,
  ) {}

  /** The kind of search running, if any. */
  get running(): Job['kind'] | null {
    return this.job?.kind ?? null;
  }

  /** The last search may run again (the person asked for it). */
  again(): void {
    this.finishedKey = '';
  }

  /** Forgets the searches (the engine restarts, or is gone). */
  reset(): void {
    this.job = null;
    this.finishedKey = '';
  }

  /** A new game: the engine's `ucinewgame`, and no search of the last game counts. */
  newGame(): void {
    this.gameSerial++;
    this.finishedKey = '';
    this.engine.newGame();
    this.job = null;
  }

  /** The engine's status changed: its levels, and its searches forgotten when it is not ready. */
  engineStatus(): void {
    const opt = this.engine.option('UCI_Elo');
    const limited = this.engine.hasOption('UCI_LimitStrength') && opt?.min !== undefined && opt.max !== undefined;
    this.levels = levelsFor(limited ? { min: opt!.min!, max: opt!.max! } : null, this.engine.name);
    if (!this.engine.ready) this.reset();
  }

  level(): Level {
    const n = this.host.state().settings.level;
    return this.levels.find((l) => l.n === n) ?? this.levels[this.levels.length - 1];
  }

  /** The status pill's detail: the level against Thoth and the threads it plays (or analyses) on. */
  strengthText(): string {
    const s = this.host.state();
    const level = this.level();
    const t = this.engine.threadsFor(s.mode !== 'engine' || isFullStrength(level));
    const threads = `${plural(t, 'thread')}`;
    return s.mode === 'engine' ? `Level ${level.n}, ${threads}` : threads;
  }

  /** What Thoth should be doing for the state now: play a move, analyse, or nothing. */
  private wanted(): (Job & { start: () => void }) | null {
    const s = this.host.state();
    if (!this.engine.ready) return null;
    // the board editor holds the board: the game under it stands still
    if (s.editor) return null;
    // a mode's search: a move tried in Learn from your mistakes, scored as the review scores a move
    const wanted = this.host.modeSearch();
    if (wanted) {
      const key = `mode|${this.gameSerial}|${wanted.key}`;
      return { key, kind: 'review', start: () => wanted.start(this.engine, () => this.done(key)) };
    }
    if (s.mode === 'engine') {
      if (S.isOver(s) || s.pendingReply) return null;
      const pos = S.endPosition(s);
      if (pos.side === s.humanSide) return null;
      const end = S.endPath(s);
      const key = `play|${this.gameSerial}|${positionCommand(s.tree, end)}`;
      return { key, kind: 'play', start: () => this.startPlay(key, end) };
    }
    const next = R.nextReviewStep(s);
    if (s.mode === 'analysis' && next) {
      const rk = s.review!.key;
      const key = `review|${this.gameSerial}|${rk}|${next.index}|${next.only ?? ''}`;
      return { key, kind: 'review', start: () => this.startReviewStep(key, rk, next) };
    }
    if (s.mode === 'analysis' && s.analysing) {
      const pos = S.viewPosition(s);
      if (legalMoves(pos).length === 0 || S.gameStatusOf(pos) !== 'ongoing') return null;
      const lk = S.linesKey(s);
      const key = `analyse|${this.gameSerial}|${lk}|${s.settings.multipv}`;
      return { key, kind: 'analyse', start: () => this.startAnalysis(key, lk) };
    }
    return null;
  }

  /** Starts the search the state wants, or stops the one it no longer does. */
  sync(): void {
    const want = this.wanted();
    if (want?.key === this.job?.key) return;
    if (want && want.key === this.finishedKey) {
      if (this.job) this.engine.cancel();
      this.job = null;
      return;
    }
    this.job = null;
    if (!want) {
      this.engine.cancel();
      this.host.scheduleRender();
      return;
    }
    this.job = { key: want.key, kind: want.kind };
    want.start();
  }

  /** The search `key` has finished (true), or another has taken its place (false). */
  private done(key: string): boolean {
    if (this.job?.key !== key) return false;
    this.job = null;
    this.finishedKey = key;
    return true;
  }

  private startPlay(key: string, end: Path): void {
    const s = this.host.state();
    const level = this.level();
    const asked = now();
    const clock = s.clock
      ? { left: [timeLeft(s.clock, 0, asked), timeLeft(s.clock, 1, asked)] as [number, number], incMs: s.clock.incMs }
      : null;
    const thothTime = clock
      ? clock.left[S.endPosition(s).side]
      : level.depth !== undefined
        ? 60000
        : MOVETIME_WITHOUT_CLOCK;
    this.engine.search({
      options: {
        UCI_Variant: s.tree.edition,
        ...levelOptions(level, this.engine.hasOption('UCI_LimitStrength')),
        ...strengthOptions(this.engine, isFullStrength(level)),
      },
      position: positionCommand(s.tree, end),
      go: levelGoCommand(level, clock),
      deadlineMs: thothTime + 5000,
      onInfo: (i) => {
        if (this.job?.key === key) this.host.update((x) => S.thinkingLine(x, i), 'soon');
      },
      onBestmove: (text) => {
        if (this.done(key)) this.played(end, level, asked, text);
      },
    });
    this.host.scheduleRender();
  }

  /** Thoth's move `text`, asked at `asked`: played, with what Thoth said of it (its score kept for the graph). */
  private played(end: Path, level: Level, asked: number, text: string): void {
    const said = this.host.state().thinking;
    const note = {
      timeMs: Math.round(now() - asked),
      ...(said
        ? {
            depth: said.depth,
            ...(said.score.kind === 'mate' ? { mate: said.score.value } : { scoreCp: said.score.value }),
          }
        : {}),
    };
    if (said) this.recordThothEval(end, said);
    const thoth = thothPlayerName(this.engine.name, level);
    this.host.update((x) => S.engineMoved(S.thothPlays(x, thoth), text, note, now()));
  }

  /** Thoth's own score for the position it moved from, for the graph. */
  private recordThothEval(path: Path, i: InfoLine): void {
    const s = this.host.state();
    const pos = S.positionAtPath(s, path);
    this.host.put(
      S.recordEval(s, path, {
        kind: i.score.kind,
        value: pos.side === 0 ? i.score.value : -i.score.value,
        depth: i.depth,
      }),
    );
  }

  private startAnalysis(key: string, linesFor: string): void {
    const s = this.host.state();
    const opts: Record<string, string> = {
      UCI_Variant: s.tree.edition,
      MultiPV: String(s.settings.multipv),
      // win, draw and loss beside each score, from an engine that offers them (only declared options are sent)
      UCI_ShowWDL: 'true',
      ...strengthOptions(this.engine, true),
    };
    if (this.engine.hasOption('UCI_LimitStrength')) opts.UCI_LimitStrength = 'false';
    this.engine.search({
      options: opts,
      position: positionCommand(s.tree, s.path),
      // the whole position, or only the moves the person picked (`searchmoves`)
      go: analysisGo(s),
      onInfo: (i) => {
        if (this.job?.key === key) this.host.update((x) => S.analysisLine(x, linesFor, i), 'soon');
      },
      onBestmove: () => {
        if (this.done(key)) this.host.scheduleRender();
      },
    });
    this.host.scheduleRender();
  }

  /**
   * One search of a review (src/analysis/review-method.ts): a position, or its move played alone,
   * to the review's depth on one thread from an empty table; its score kept.
   */
  private startReviewStep(key: string, reviewKey: string, step: R.ReviewStep): void {
    const s = this.host.state();
    reviewSearch(
      this.engine,
      s.tree.edition,
      positionCommand(s.tree, new Array<number>(step.index).fill(0)),
      step.only,
      (score, best) => {
        if (!this.done(key)) return;
        this.host.update((x) =>
          step.only === undefined
            ? R.reviewScore(x, reviewKey, step.index, score, best)
            : R.reviewPlayedScore(x, reviewKey, step.index, score),
        );
      },
    );
    this.host.scheduleRender();
  }
}
