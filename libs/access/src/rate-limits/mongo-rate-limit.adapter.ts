import type { Collection, Db } from 'mongodb';
import { windowStart, type RateLimitStore } from './rate-limit.port.js';

interface CounterDoc {
  _id: string;
  count: number;
  expires_at: Date;
}

/** E11000: two first hits of a window raced on the insert of its document; the retry increments. */
const DUPLICATE_KEY = 11000;

/**
 * Counters shared by every API instance: one document per key and window, incremented with an
 * atomic upsert (`$inc`); a TTL index removes finished windows. `db` hands over the connected
 * database of the document store (`MongoDocumentStore.database()`), whose client it shares.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private counters: Promise<Collection<CounterDoc>> | undefined;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly collection = 'rate_limit_counters',
  ) {}

  async hit(key: string, windowSeconds: readonly number[], now: Date): Promise<number[]> {
    const counters = await this.ready();
    return Promise.all(windowSeconds.map((seconds) => this.increment(counters, key, seconds, now)));
  }

  async count(key: string, windowSeconds: readonly number[], now: Date): Promise<number[]> {
    const counters = await this.ready();
    const ids = windowSeconds.map((seconds) => `${key}:${seconds}:${windowStart(seconds, now)}`);
    const docs = await counters.find({ _id: { $in: ids } }).toArray();
    const byId = new Map(docs.map((d) => [d._id, d.count]));
    return ids.map((id) => byId.get(id) ?? 0);
  }

  private async increment(
    counters: Collection<CounterDoc>,
    key: string,
    windowSeconds: number,
    now: Date,
  ): Promise<number> {
    const start = windowStart(windowSeconds, now);
    const id = `${key}:${windowSeconds}:${start}`;
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await counters.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(start + windowSeconds * 1000) } },
          { upsert: true, returnDocument: 'after' },
        );
        return doc?.count ?? 1;
      } catch (error) {
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt >= 3) throw error;
      }
    }
  }

  private ready(): Promise<Collection<CounterDoc>> {
    this.counters ??= (async () => {
      const counters = (await this.db()).collection<CounterDoc>(this.collection);
      await counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
      return counters;
    })().catch((error: unknown) => {
      this.counters = undefined;
      throw error;
    });
    return this.counters;
  }

  async close(): Promise<void> {
    // The client belongs to the document store, which closes it.
  }
}
