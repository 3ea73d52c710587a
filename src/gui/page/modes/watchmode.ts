/**
 * *Watch Thoth play itself from here* on the page (docs/gui.md, "Practice and watch"): from the
 * analysis board's shown position Thoth plays both sides at full strength, the chosen time a move
 * (the speed control, changeable while it plays), each move added to the board's tree as a line
 * (state/watch.ts). *Pause* holds it (Thoth then analyses the shown position as usual) and
 * *Resume* goes on from the line's end; *Stop* ends it, the board left on the position it shows.
 */
import { legalMoves } from '../../../core/index';
import type { InfoLine } from '../../../core/info';
import type { EngineClient } from '../engine/engine-client';
import { strengthOptions, type ModeSearch } from '../engine/searches';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { pathExists, positionCommand } from '../state/tree';
import {
  DEFAULT_WATCH_MS,
  WATCH_SPEEDS,
  pauseWatch,
  resumeWatch,
  setWatchSpeed,
  startWatch,
  watchGo,
  watchOver,
  watchPlayed,
  type Watch,
} from '../state/watch';
import { elementsById } from '../view/dom';
import { OwnUpdates, type ModeHost, type PageMode } from './mode';

const speedLabel = (ms: number): string => `${ms / 1000} s a move`;

export class WatchMode implements PageMode {
  private watch: Watch | null = null;
  private readonly own: OwnUpdates;
  private serial = 0;
  private readonly el: Record<string, HTMLElement>;

  constructor(
    private readonly host: ModeHost,
    private readonly doc: Document = document,
  ) {
    this.own = new OwnUpdates(host);
    this.el = elementsById(doc, ['watch-row', 'wt-speed', 'btn-watch', 'wt-pause', 'wt-stop', 'wt-msg']);
    const speed = this.el['wt-speed'] as HTMLSelectElement;
    speed.innerHTML = WATCH_SPEEDS.map((ms) => `<option value="${ms}">${speedLabel(ms)}</option>`).join('');
    speed.value = String(DEFAULT_WATCH_MS);
    speed.onchange = () => {
      if (this.watch) this.watch = setWatchSpeed(this.watch, Number(speed.value));
      this.nudge();
    };
    this.el['btn-watch'].onclick = () => this.startOrResume();
    this.el['wt-pause'].onclick = () => {
      if (this.watch) this.watch = pauseWatch(this.watch);
      this.nudge();
    };
    this.el['wt-stop'].onclick = () => this.stop();
  }

  keptGame(): null {
    return null;
  }

  /** Thoth's next move of the watched line, while it plays. */
  search(): ModeSearch | null {
    const w = this.watch;
    if (!w || !w.running) return null;
    const serial = this.serial;
    return {
      key: `watch|${serial}|${w.at.join('.')}|${w.moveMs}`,
      start: (engine, done) => this.startSearch(engine, w, serial, done),
    };
  }

  private startOrResume(): void {
    const s = this.host.state();
    if (s.mode !== 'analysis') return;
    const ms = Number((this.el['wt-speed'] as HTMLSelectElement).value) || DEFAULT_WATCH_MS;
    if (this.watch && !watchOver(s, this.watch)) this.watch = setWatchSpeed(resumeWatch(this.watch), ms);
    else {
      this.watch = startWatch(S.exitPreview(s), ms);
      this.serial++;
    }
    if (this.watch) this.own.run((x) => S.exitPreview(x));
    this.nudge();
  }

  stop(): void {
    this.watch = null;
    this.serial++;
    this.nudge();
  }

  /** The searches follow the watch (its search wanted or not): the page's update loop runs. */
  private nudge(): void {
    this.own.run((x) => ({ ...x }));
    this.render();
  }

  observe(before: PageState, after: PageState): void {
    const w = this.watch;
    if (!w || this.own.mine) return;
    if (after.mode !== 'analysis' || after.tree.startKfen !== before.tree.startKfen || !pathExists(after.tree, w.at)) {
      // another game, another mode, or the line's end deleted: watching ends
      this.watch = null;
      this.serial++;
      this.render();
      return;
    }
    // the person changed the tree (a move of their own, a line promoted): watching pauses
    if (after.tree !== before.tree && w.running) {
      this.watch = pauseWatch(w);
      this.render();
    }
  }

  private startSearch(engine: EngineClient, w: Watch, serial: number, done: () => boolean): void {
    const s = this.host.state();
    const options: Record<string, string> = {
      UCI_Variant: s.tree.edition,
      MultiPV: '1',
      ...strengthOptions(engine, true),
    };
    if (engine.hasOption('UCI_LimitStrength')) options.UCI_LimitStrength = 'false';
    const asked = performance.now();
    let last: InfoLine | null = null;
    engine.search({
      options,
      position: positionCommand(s.tree, w.at),
      go: watchGo(w),
      deadlineMs: w.moveMs + 5000,
      onInfo: (i) => {
        if (i.multipv === 1) last = i;
      },
      onBestmove: (text) => {
        if (!done() || serial !== this.serial || !this.watch) return;
        const said = last as InfoLine | null;
        const note = {
          timeMs: Math.round(performance.now() - asked),
          ...(said
            ? {
                depth: said.depth,
                ...(said.score.kind === 'mate' ? { mate: said.score.value } : { scoreCp: said.score.value }),
              }
            : {}),
        };
        let next: Watch | null = null;
        this.own.run((x) => {
          const r = watchPlayed(x, this.watch ?? w, text, note);
          next = r.watch;
          return r.state;
        });
        this.watch = next;
        this.nudge();
      },
    });
  }

  // ---- drawing -------------------------------------------------------------------------------

  render(): void {
    const s = this.host.state();
    const w = this.watch;
    const shown = s.mode === 'analysis' && !s.editor;
    this.el['watch-row'].hidden = !shown;
    const b = this.el['btn-watch'] as HTMLButtonElement;
    const over = w
      ? watchOver(s, w)
      : S.gameStatusOf(S.viewPosition(s)) !== 'ongoing' || legalMoves(S.viewPosition(s)).length === 0;
    b.hidden = w?.running === true;
    b.textContent = w && !over ? 'Resume' : 'Watch Thoth play itself';
    b.disabled = (!w && over) || !s.engineAvailable;
    (this.el['wt-pause'] as HTMLButtonElement).hidden = !w?.running;
    (this.el['wt-stop'] as HTMLButtonElement).hidden = !w;
    this.el['watch-row'].dataset.watch = !w ? '' : w.running ? 'running' : 'paused';
    this.el['watch-row'].dataset.played = String(w?.played ?? 0);
    this.el['wt-msg'].textContent = !w
      ? ''
      : `${w.played} move${w.played === 1 ? '' : 's'} played${w.running ? '' : over ? ': the game is over' : ', paused'}`;
    const hint = this.doc.getElementById('hint');
    if (hint && w?.running) hint.textContent = 'Thoth plays both sides: Pause holds it, Stop ends it.';
    if (w) this.doc.body.dataset.watch = w.running ? 'running' : 'paused';
    else delete this.doc.body.dataset.watch;
  }
}
