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
    if (this.failures.size > 50_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  /** Counts a try unless the key is at its limit: how many are left after it and its time, or how long until one is free. */
  take(key: string, now = Date.now()): { left: number; at: number } | { retryAfterMs: number } {
    const kept = this.recent(key, now);
    if (kept.length >= this.max) return { retryAfterMs: kept[kept.length - this.max] + this.windowMs - now };
    this.fail(key, now);
    return { left: this.max - kept.length - 1, at: now };
  }

  /** Forgets one try taken at `at`, as a try that succeeded. */
  giveBack(key: string, at: number): void {
    const kept = this.failures.get(key);
    const index = kept?.lastIndexOf(at) ?? -1;
    if (kept && index >= 0) kept.splice(index, 1);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}
