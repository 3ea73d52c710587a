/** The settings form: it shows the settings, and says what applies only with New game. */
import { EDITIONS, setupKfen, setupsOf } from '../../../core/index';
import type { Dom } from './dom';
import type { Level } from '../engine/levels';
import { clockFromText } from '../state/clock';
import { customStart } from '../state/state';
import type { PageState } from '../state/state-types';

function options(sel: HTMLSelectElement, items: [string, string][], value: string): void {
  const key = items.map(([v, t]) => `${v}=${t}`).join('|');
  if (sel.dataset.items !== key) {
    sel.replaceChildren(
      ...items.map(([v, t]) => {
        const o = document.createElement('option');
        o.value = v;
        o.textContent = t;
        return o;
      }),
    );
    sel.dataset.items = key;
  }
  if (items.some(([v]) => v === value)) sel.value = value;
}

/** The Setup list's entry for a board that starts from a position of its own. */
export const CUSTOM_SETUP = 'custom';

const setupLabel = (x: string): string => x[0].toUpperCase() + x.slice(1);

/** True when the time control `tc` (`300+3`, '' for none) is not the clock of the game on the board. */
function otherClock(s: PageState, tc: string): boolean {
  const want = clockFromText(tc);
  const have = s.clock;
  return want === null || have === null ? want !== have : want.baseMs !== have.baseMs || want.incMs !== have.incMs;
}

/**
 * What the form says that the game on the board is not: it applies with New game, never before.
 * `tcLabel` names a time control as the form lists it ("10 min + 5 s", "No clock").
 */
function formPending(s: PageState, tcLabel: (tc: string) => string): string[] {
  const st = s.settings;
  const out: string[] = [];
  if (st.edition !== s.tree.edition) out.push(`Edition ${EDITIONS[st.edition].name}`);
  else if (
    setupKfen(st.edition, st.setup) !== undefined &&
    setupKfen(st.edition, st.setup) !== s.tree.startKfen &&
    (!customStart(s) || s.setupChosen)
  ) {
    out.push(`Setup ${setupLabel(st.setup)}`);
  }
  if (s.mode === 'engine' && (st.side === '0' || st.side === '1') && Number(st.side) !== s.humanSide) {
    out.push(`You play ${EDITIONS[st.edition].colorNames[Number(st.side)]}`);
  }
  // The clock of a game (not of the analysis board, which has none shown)
  if (s.mode !== 'analysis' && otherClock(s, st.tc)) out.push(`Time control ${tcLabel(st.tc)}`);
  return out;
}

/** The form shows the settings (setups and colour names follow the edition). */
export function renderForm(dom: Dom, s: PageState, levels: Level[]): void {
  const st = s.settings;
  dom.edition.value = st.edition;
  // Over a position of its own the list says so, until the person picks a setup for New game.
  const custom = st.edition === s.tree.edition && customStart(s) && !s.setupChosen;
  options(
    dom.setup,
    [
      ...(custom ? [[CUSTOM_SETUP, 'Custom position'] as [string, string]] : []),
      ...setupsOf(st.edition).map((x): [string, string] => [x, setupLabel(x)]),
    ],
    custom ? CUSTOM_SETUP : st.setup,
  );
  const names = EDITIONS[st.edition].colorNames;
  options(
    dom.side,
    [
      ['0', `${names[0]} (first)`],
      ['1', names[1]],
      ['random', 'Random'],
    ],
    st.side,
  );
  options(
    dom.level,
    levels.map((l) => [String(l.n), l.label]),
    String(st.level),
  );
  dom.tc.value = st.tc;
  dom.multipv.value = String(st.multipv);
  dom.optThinking.checked = st.showThinking;
  dom.optLasers.checked = st.showLasers;
  dom.optDanger.value = st.danger ?? 'off';
  dom.optAim.checked = st.shotPreview;
  for (const r of dom.modes) r.checked = r.value === s.mode;
  const note = dom.body.ownerDocument.getElementById('form-note');
  if (note) {
    const label = (tc: string): string =>
      Array.from(dom.tc.options).find((o) => o.value === tc)?.textContent ?? (tc === '' ? 'No clock' : tc);
    const pending = formPending(s, label);
    note.hidden = pending.length === 0;
    note.textContent = pending.length
      ? `${pending.join(', ')}: with New game (the game on the board is not changed).`
      : '';
  }
  dom.body.dataset.mode = s.mode;
  dom.body.className = `ed-${s.tree.edition}`;
}
