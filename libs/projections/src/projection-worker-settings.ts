import type { DocumentStore } from '#documents';
import type { EventStore } from '#eventstore';
import type { Clock } from '#kernel';
import type { ProjectionStore } from './projection-store.js';

export interface ProjectionLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface CommitInfo {
  projection: string;
  generation: number;
  /** Checkpoint now stored. */
  position: number;
  events: number;
  rebuild: boolean;
}

export interface WorkerSettings {
  eventStore: EventStore;
  documents: DocumentStore;
  store: ProjectionStore;
  clock: Clock;
  logger: ProjectionLogger;
  batchSize: number;
  idleCheckMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
  onProgress(): void;
  onCommit?: (info: CommitInfo) => void | Promise<void>;
  /** This process switched a projection's generation: its live worker must move over. */
  onSwitched(projection: string): void;
}
