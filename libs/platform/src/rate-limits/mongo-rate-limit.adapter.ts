import type { Collection, MongoClient } from 'mongodb';
import { windowStart, type RateLimitStore } from './rate-limit.port.js';

interface CounterDoc {
  _id: string;
  count: number;
  expires_at: Date;
}

/**
 * Counters shared by every API instance: one document per key and window, incremented with an
 * atomic upsert; a TTL index removes finished windows.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly counters: Collection<CounterDoc>;
  private indexed: Promise<unknown> | undefined;

  constructor(
    private readonly client: MongoClient,
    database: string,
    collection = 'rate_limit_counters',
  ) {
    this.counters = client.db(database).collection<CounterDoc>(collection);
  }

  async hit(key: string, windowSeconds: number, now: Date): Promise<number> {
    this.indexed ??= this.counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }).catch((e) => {
      this.indexed = undefined;
      throw e;
    });
    await this.indexed;
    const start = windowStart(windowSeconds, now);
    const doc = await this.counters.findOneAndUpdate(
      { _id: `${key}:${windowSeconds}:${start}` },
      { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(start + windowSeconds * 1000) } },
      { upsert: true, returnDocument: 'after' },
    );
    return doc?.count ?? 1;
  }

  async close(): Promise<void> {
    // The client is owned by whoever created it.
  }
}
