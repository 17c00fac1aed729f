import type { Collection as MongoCollection } from 'mongodb';
import {
  InvalidFilterError,
  type Collection,
  type Doc,
  type Filter,
  type FindOptions,
  type FindResult,
} from '../document-store.port.js';
import { parseFilter } from '../query/document-filter.js';
import { fromStored, toMongoFilter, type StoredDoc } from './mongo-document-query.js';

/** What a collection handle asks of its store: the driver's collection, and the writes with rules. */
export interface MongoCollectionHost {
  raw(name: string): Promise<MongoCollection<StoredDoc>>;
  upsert(collection: string, doc: Doc): Promise<void>;
  insertIfAbsent(collection: string, doc: Doc): Promise<boolean>;
  updateIf(collection: string, id: string, where: Filter, set: Record<string, unknown>): Promise<boolean>;
  find(collection: string, filter: Filter | undefined, options: FindOptions | undefined): Promise<FindResult<Doc>>;
}

/** The port's Collection on MongoDB: plain reads here, writes with guards and rules in the store. */
export class MongoDocCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: MongoCollectionHost,
    readonly name: string,
  ) {}

  async get(id: string): Promise<T | null> {
    const stored = await (await this.store.raw(this.name)).findOne({ _id: id });
    return stored ? fromStored<T>(stored) : null;
  }

  async getMany(ids: string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const unique = [...new Set(ids)];
    const stored = await (await this.store.raw(this.name)).find({ _id: { $in: unique } }).toArray();
    const byId = new Map(stored.map((d) => [d._id, fromStored<T>(d)]));
    return unique.flatMap((id) => {
      const doc = byId.get(id);
      return doc ? [doc] : [];
    });
  }

  upsert(doc: T): Promise<void> {
    return this.store.upsert(this.name, doc);
  }

  insertIfAbsent(doc: T): Promise<boolean> {
    return this.store.insertIfAbsent(this.name, doc);
  }

  updateIf(id: string, where: Filter, set: Record<string, unknown>): Promise<boolean> {
    return this.store.updateIf(this.name, id, where, set);
  }

  async delete(id: string): Promise<boolean> {
    const result = await (await this.store.raw(this.name)).deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  async find(filter?: Filter, options?: FindOptions): Promise<FindResult<T>> {
    return (await this.store.find(this.name, filter, options)) as FindResult<T>;
  }

  async count(filter?: Filter): Promise<number> {
    const query = toMongoFilter(parseFilter(filter));
    return (await this.store.raw(this.name)).countDocuments(query);
  }

  async deleteMany(filter: Filter): Promise<number> {
    if (filter === undefined) throw new InvalidFilterError('deleteMany needs a filter ({} deletes every document)');
    const query = toMongoFilter(parseFilter(filter));
    const result = await (await this.store.raw(this.name)).deleteMany(query);
    return result.deletedCount;
  }
}
