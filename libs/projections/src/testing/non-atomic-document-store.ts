import type { ApplyBatchOptions, Collection, Doc, DocumentStore, IndexSpec, WriteOp } from '#documents';

/**
 * A DocumentStore that applies a batch the way the MongoDB adapter does: op by op, in order,
 * not as one transaction, and that can "crash" part-way: `crash(call, ops)` returns after how
 * many ops of the call-th batch to throw (or null); with `dieOnCrash` every later call fails
 * too, like a dead process. Lets the embedded tests exercise the at-least-once path and its guards.
 */
export class NonAtomicDocumentStore implements DocumentStore {
  crashes = 0;
  private calls = 0;

  constructor(
    private readonly inner: DocumentStore,
    private readonly crash: (call: number, ops: WriteOp[]) => number | null = () => null,
    private readonly options: { dieOnCrash?: boolean } = {},
  ) {}

  private get dead(): boolean {
    return this.options.dieOnCrash === true && this.crashes > 0;
  }

  private alive(): void {
    if (this.dead) throw new Error('simulated dead process');
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return this.inner.collection<T>(name);
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    this.alive();
    return this.inner.ensureIndexes(collection, indexes);
  }

  async dropCollection(name: string): Promise<void> {
    this.alive();
    return this.inner.dropCollection(name);
  }

  listCollections(): Promise<string[]> {
    return this.inner.listCollections();
  }

  async applyBatch(ops: WriteOp[], options?: ApplyBatchOptions): Promise<void> {
    this.alive();
    const crashAt = this.crash(++this.calls, ops);
    for (let i = 0; i < ops.length; i++) {
      if (crashAt !== null && i === crashAt) {
        this.crashes++;
        throw new Error(`simulated crash after ${i} of ${ops.length} ops`);
      }
      await this.inner.applyBatch([ops[i]!], options);
    }
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
