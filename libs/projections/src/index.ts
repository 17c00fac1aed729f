export * from './projection.port.js';
export * from './projection-store.js';
export * from './projection-runner.js';
export {
  ProjectionHandlerError,
  RebuildAbortedError,
  type CommitInfo,
  type ProjectionLogger,
} from './projection-worker.js';
export * from './projection-registry.js';
export * from './background-work.js';
export * from './read-your-writes.js';
export * from './ownership/ownership.port.js';
export * from './ownership/document-ownership.adapter.js';
export * from './ownership/background-ownership.js';
export * from './periodic-sweeper.js';
