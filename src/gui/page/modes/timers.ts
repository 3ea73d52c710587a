/** Timeouts a mode of the page owns: each runs once, and all still due are cancelled together (a new task, leaving). */
export class Timers {
  private readonly due = new Set<ReturnType<typeof setTimeout>>();

  /** Runs `f` after `ms`, unless cancel() comes first. */
  later(f: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.due.delete(t);
      f();
    }, ms);
    this.due.add(t);
  }

  cancel(): void {
    for (const t of this.due) clearTimeout(t);
    this.due.clear();
  }
}
