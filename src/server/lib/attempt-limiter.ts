/** Counts failures per key in a sliding window; a key over the limit is refused until its oldest failure ages out. */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  isBlocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.max;
  }

  fail(key: string, now = Date.now()): void {
    this.failures.set(key, [...this.recent(key, now), now]);
    const oldest = this.failures.keys().next();
    if (this.failures.size > 50_000 && !oldest.done) this.failures.delete(oldest.value);
  }

  /** How many entries the key has in the window. */
  count(key: string, now = Date.now()): number {
    return this.recent(key, now).length;
  }

  /** How long until the key has fewer than `limit` entries in the window; 0 when it has already. */
  freeIn(key: string, limit: number, now = Date.now()): number {
    const kept = this.recent(key, now);
    return kept.length < limit ? 0 : kept[kept.length - limit] + this.windowMs - now;
  }

  /** Forgets one entry made at `at`. */
  remove(key: string, at: number): void {
    const kept = this.failures.get(key);
    const index = kept?.lastIndexOf(at) ?? -1;
    if (kept && index >= 0) kept.splice(index, 1);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}
