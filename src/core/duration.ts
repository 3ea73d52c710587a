/** Durations in the short form of progress lines: `42s`, `3m05s`, `1h02m`. */

/** A duration in milliseconds as `42s`, `3m05s`, `1h02m`; `?` when not finite (an ETA not known yet). */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}
