/** The settings form: it shows the settings, and says what applies only with New game. */
import { EDITIONS, setupKfen, setupsOf } from '../../../core/index';
import type { Dom } from './dom';
import type { Level } from '../engine/levels';
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

/** What the form says that the game on the board is not: it applies with New game, never before. */
function formPending(s: PageState): string[] {
  const st = s.settings;
  const out: string[] = [];
  if (st.edition !== s.tree.edition) out.push(`Edition ${EDITIONS[st.edition].name}`);
  else if (
    setupKfen(st.edition, st.setup) !== undefined &&
    setupKfen(st.edition, st.setup) !== s.tree.startKfen &&
    setupsOf(st.edition).some((x) => setupKfen(st.edition, x) === s.tree.startKfen)
  ) {
    out.push(`Setup ${st.setup[0].toUpperCase()}${st.setup.slice(1)}`);
  }
  if (s.mode === 'engine' && (st.side === '0' || st.side === '1') && Number(st.side) !== s.humanSide) {
    out.push(`You play ${EDITIONS[st.edition].colorNames[Number(st.side)]}`);
  }
  return out;
}

/** The form shows the settings (setups and colour names follow the edition). */
export function renderForm(dom: Dom, s: PageState, levels: Level[]): void {
  const st = s.settings;
  dom.edition.value = st.edition;
  options(
    dom.setup,
    setupsOf(st.edition).map((x) => [x, x[0].toUpperCase() + x.slice(1)]),
    st.setup,
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
    const pending = formPending(s);
    note.hidden = pending.length === 0;
    note.textContent = pending.length
      ? `${pending.join(', ')}: with New game (the game on the board is not changed).`
      : '';
  }
  dom.body.dataset.mode = s.mode;
  dom.body.className = `ed-${s.tree.edition}`;
}
