import { ConcurrentModificationError, type DocumentStore, type WriteOp } from '#documents';
import type { Clock } from '#kernel';
import type { ProjectionDefinition } from './projection.port.js';
import {
  generationCollection,
  generationOf,
  PROJECTIONS_COLLECTION,
  rebuildCheckpointId,
  type ActiveCheckpoint,
  type ProjectionStore,
  type RebuildCheckpoint,
} from './projection-store.js';

export interface Target {
  generation: number;
  /** Physical collections by logical name. */
  physical: Map<string, string>;
  rebuild: boolean;
}

/**
 * A projection's generations: each rebuild writes a fresh set of collections
 * (`{name}__g{generation}`) while readers keep the active one, then a cas on the checkpoints
 * switches them over atomically (embedded); older generations are dropped after a switch.
 * Checkpoint documents live in PROJECTIONS_COLLECTION, written only through compare-and-set.
 */
export class ProjectionGenerations {
  private readonly indexedGenerations = new Set<number>();

  constructor(
    private readonly definition: ProjectionDefinition,
    private readonly settings: { documents: DocumentStore; store: ProjectionStore; clock: Clock },
  ) {}

  /** The active checkpoint, created (generation 1, position 0) for a projection never run. */
  async loadActive(): Promise<ActiveCheckpoint> {
    const { definition } = this;
    for (;;) {
      const active = await this.settings.store.active(definition.name);
      if (active) return active;
      const fresh: ActiveCheckpoint = {
        id: definition.name,
        kind: 'active',
        name: definition.name,
        version: definition.version,
        generation: 1,
        position: 0,
        updated_at: this.now(),
      };
      try {
        await this.settings.documents.applyBatch([
          { kind: 'cas', collection: PROJECTIONS_COLLECTION, doc: fresh, expect: null },
        ]);
        return fresh;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
  }

  /** A fresh generation above every one in use; the latest rebuild wins over a concurrent one. */
  async allocate(): Promise<{ generation: number; active: ActiveCheckpoint | null }> {
    const { definition, settings } = this;
    for (;;) {
      const [active, previous] = await Promise.all([
        settings.store.active(definition.name),
        settings.store.rebuildState(definition.name),
      ]);
      const generation = Math.max(active?.generation ?? 0, previous?.generation ?? 0) + 1;
      const doc: RebuildCheckpoint = {
        id: rebuildCheckpointId(definition.name),
        kind: 'rebuild',
        name: definition.name,
        version: definition.version,
        generation,
        position: 0,
        state: 'running',
        updated_at: this.now(),
      };
      try {
        await settings.documents.applyBatch([
          {
            kind: 'cas',
            collection: PROJECTIONS_COLLECTION,
            doc,
            expect: previous ? { generation: previous.generation, state: previous.state } : null,
          },
        ]);
        return { generation, active };
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
  }

  /** Atomically (embedded) make the rebuilt generation the active one. */
  async switchTo(
    generation: number,
    previous: ActiveCheckpoint | null,
    persisted: number,
    position: number,
  ): Promise<void> {
    const { definition } = this;
    const now = this.now();
    await this.settings.documents.applyBatch([
      {
        kind: 'cas',
        collection: PROJECTIONS_COLLECTION,
        doc: { ...this.rebuildDoc(generation, position), state: 'done', updated_at: now },
        expect: { generation, position: persisted, state: 'running' },
      },
      {
        kind: 'cas',
        collection: PROJECTIONS_COLLECTION,
        doc: {
          id: definition.name,
          kind: 'active',
          name: definition.name,
          version: definition.version,
          generation,
          position,
          updated_at: now,
        } satisfies ActiveCheckpoint,
        // The live checkpoint exactly as the caller read it: a live commit since then fails this.
        expect: previous ? { generation: previous.generation, position: previous.position } : null,
      },
    ]);
  }

  async abandon(generation: number): Promise<void> {
    const { definition, settings } = this;
    const current = await settings.store.rebuildState(definition.name);
    if (current?.generation === generation && current.state === 'running') {
      await settings.documents.applyBatch([
        {
          kind: 'cas',
          collection: PROJECTIONS_COLLECTION,
          doc: { ...current, state: 'abandoned', updated_at: this.now() },
          expect: { generation, state: 'running' },
        },
      ]);
    }
    for (const { name } of definition.collections)
      await settings.documents.dropCollection(generationCollection(name, generation));
  }

  target(generation: number, rebuild: boolean): Target {
    return {
      generation,
      rebuild,
      physical: new Map(this.definition.collections.map((c) => [c.name, generationCollection(c.name, generation)])),
    };
  }

  /**
   * The cas that ends a batch's commit: the target's checkpoint moves from `from` to `to`, only
   * if it is still where this runner left it (another runner's commit makes the batch fail).
   */
  checkpointOp(target: Target, activeVersion: number, from: number, to: number): WriteOp {
    const { definition } = this;
    if (target.rebuild)
      return {
        kind: 'cas',
        collection: PROJECTIONS_COLLECTION,
        doc: this.rebuildDoc(target.generation, to),
        expect: { generation: target.generation, position: from, state: 'running' },
      };
    return {
      kind: 'cas',
      collection: PROJECTIONS_COLLECTION,
      doc: {
        id: definition.name,
        kind: 'active',
        name: definition.name,
        version: activeVersion,
        generation: target.generation,
        position: to,
        updated_at: this.now(),
      } satisfies ActiveCheckpoint,
      expect: { generation: target.generation, position: from },
    };
  }

  rebuildDoc(generation: number, position: number): RebuildCheckpoint {
    const { definition } = this;
    return {
      id: rebuildCheckpointId(definition.name),
      kind: 'rebuild',
      name: definition.name,
      version: definition.version,
      generation,
      position,
      state: 'running',
      updated_at: this.now(),
    };
  }

  async prepare(generation: number): Promise<void> {
    if (this.indexedGenerations.has(generation)) return;
    for (const c of this.definition.collections) {
      if (c.indexes?.length)
        await this.settings.documents.ensureIndexes(generationCollection(c.name, generation), c.indexes);
    }
    this.indexedGenerations.add(generation);
  }

  /**
   * Drops superseded generations, except the one just before `generation`: a reader in another
   * process may still resolve it from its cache (up to 500 ms) and must find it complete, not
   * dropped. Newer ones may be a rebuild running in another process, so they are left alone (an
   * abandoned one goes with the next switch).
   */
  async dropOlder(generation: number): Promise<void> {
    const names = await this.settings.documents.listCollections();
    for (const { name: logical } of this.definition.collections) {
      for (const physical of names) {
        const g = generationOf(logical, physical);
        if (g !== null && g < generation - 1) {
          await this.settings.documents.dropCollection(physical);
          this.indexedGenerations.delete(g);
        }
      }
    }
  }

  private now(): string {
    return this.settings.clock.now().toISOString();
  }
}
