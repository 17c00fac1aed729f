/**
 * A map with a bound, for caches of client-driven keys (API keys, Host headers, ...): at most
 * `maxEntries`, the oldest written going first, and an optional time to live read from `now`
 * (monotonic milliseconds by default), so no caller can grow memory without limit.
 */
export interface BoundedCacheOptions {
  maxEntries: number;
  /** Entries older than this are misses (and dropped when met). Unset: no expiry. */
  ttlMs?: number;
  now?: () => number;
}

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private readonly now: () => number;
  /**
   * Walks the entries oldest first, kept across evictions: each key it yields is deleted, so
   * every live entry is still ahead of it. A fresh `keys()` per eviction would step over every
   * deleted slot V8 keeps at the front of the map until it rehashes: thousands per eviction in
   * a full cache with churn (9 µs a `set` at 10,000 entries, a tenth of a company import's CPU).
   */
  private oldest: Iterator<K> | null = null;

  constructor(private readonly options: BoundedCacheOptions) {
    if (!(options.maxEntries >= 1)) throw new Error('BoundedCache needs maxEntries ≥ 1');
    this.now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores with the cache's TTL, or `ttlMs` for this entry. */
  set(key: K, value: V, ttlMs = this.options.ttlMs): void {
    // Re-inserted keys move to the newest end.
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      this.oldest ??= this.entries.keys();
      let next = this.oldest.next();
      if (next.done) next = (this.oldest = this.entries.keys()).next(); // defensive: never expected
      if (!next.done) this.entries.delete(next.value);
    }
    this.entries.set(key, { value, expires: ttlMs === undefined ? Infinity : this.now() + ttlMs });
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Drops every entry whose value matches. */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.oldest = null;
  }
}
