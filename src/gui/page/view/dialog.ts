/** The page's confirmation dialog (#dialog): a question, Yes (its own words) or No, Escape for No. */
import type { Dom } from './dom';

/** Asks the person to confirm; resolves true for yes. */
export function ask(d: Dom, text: string, yes: string): Promise<boolean> {
  d.dialogText.textContent = text;
  d.dialogYes.textContent = yes;
  d.dialog.hidden = false;
  d.dialogYes.focus();
  return new Promise((resolve) => {
    const done = (v: boolean): void => {
      d.dialog.hidden = true;
      d.dialogYes.onclick = null;
      d.dialogNo.onclick = null;
      d.dialog.onkeydown = null;
      resolve(v);
    };
    d.dialogYes.onclick = () => done(true);
    d.dialogNo.onclick = () => done(false);
    d.dialog.onkeydown = (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        done(false);
      }
    };
  });
}
