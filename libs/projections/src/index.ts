export {
  type ProjectionContext,
  type ProjectionDefinition,
  type ProjectionState,
  type ProjectionStatus,
  ProjectionTimeoutError,
  type RebuildResult,
  UnknownProjectionError,
  type WaitForOptions,
} from './projection.port.js';
export {
  type ActiveCheckpoint,
  DEAD_LETTERS_COLLECTION,
  generationCollection,
  generationOf,
  PROJECTIONS_COLLECTION,
  ProjectionStore,
  type ProjectionStoreOptions,
  type ReadonlyCollection,
  type RebuildCheckpoint,
  rebuildCheckpointId,
} from './projection-store.js';
export { projectionJob, ProjectionRunner, type ProjectionRunnerOptions } from './projection-runner.js';
export {
  ProjectionHandlerError,
  RebuildAbortedError,
  type CommitInfo,
  type ProjectionLogger,
} from './projection-worker.js';
export { ProjectionRegistry, ProjectionRegistryModule, ProjectionsModule } from './projection-registry.js';
export { BACKGROUND_WORK, type BackgroundWork } from './background-work.js';
export { type CommandOptions, ReadYourWrites } from './read-your-writes.js';
export { OWNERSHIP_LEASES, type OwnershipLease, type OwnershipLeases } from './ownership/ownership.port.js';
export { DocumentOwnershipLeases, OWNERSHIP_LEASES_COLLECTION } from './ownership/document-ownership.adapter.js';
export {
  BackgroundOwnership,
  DEFAULT_OWNERSHIP_SETTINGS,
  type OwnedJob,
  type OwnershipLogger,
  type OwnershipOptions,
  type OwnershipSettings,
  type OwnershipView,
  processOfThisHostIsGone,
} from './ownership/background-ownership.js';
export { PeriodicSweeper } from './periodic-sweeper.js';
