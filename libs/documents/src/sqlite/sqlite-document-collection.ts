import type { Collection, Doc, Filter, FindOptions, FindResult } from '../document-store.port.js';

/** What a collection handle asks of its store: the synchronous operations of one connection. */
export interface SqliteCollectionHost {
  getSync(collection: string, id: string): Doc | null;
  getManySync(collection: string, ids: string[]): Doc[];
  upsertOne(collection: string, doc: Doc): void;
  insertIfAbsentOne(collection: string, doc: Doc): boolean;
  updateIfOne(collection: string, id: string, where: Filter, set: Record<string, unknown>): boolean;
  deleteOne(collection: string, id: string): boolean;
  findSync(collection: string, filter: Filter | undefined, options: FindOptions | undefined): FindResult<Doc>;
  countSync(collection: string, filter: Filter | undefined): number;
  deleteManySync(collection: string, filter: Filter): number;
}

/** The port's async Collection over a store whose operations are synchronous (better-sqlite3). */
export class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: SqliteCollectionHost,
    readonly name: string,
  ) {}

  async get(id: string): Promise<T | null> {
    return this.store.getSync(this.name, id) as T | null;
  }

  async getMany(ids: string[]): Promise<T[]> {
    return this.store.getManySync(this.name, ids) as T[];
  }

  async upsert(doc: T): Promise<void> {
    this.store.upsertOne(this.name, doc);
  }

  async insertIfAbsent(doc: T): Promise<boolean> {
    return this.store.insertIfAbsentOne(this.name, doc);
  }

  async updateIf(id: string, where: Filter, set: Record<string, unknown>): Promise<boolean> {
    return this.store.updateIfOne(this.name, id, where, set);
  }

  async delete(id: string): Promise<boolean> {
    return this.store.deleteOne(this.name, id);
  }

  async find(filter?: Filter, options?: FindOptions): Promise<FindResult<T>> {
    return this.store.findSync(this.name, filter, options) as FindResult<T>;
  }

  async count(filter?: Filter): Promise<number> {
    return this.store.countSync(this.name, filter);
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.store.deleteManySync(this.name, filter);
  }
}
