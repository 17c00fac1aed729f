export * from './projection.port.js';
export * from './projection-store.js';
export * from './projection-runner.js';
export { ProjectionHandlerError, RebuildAbortedError, type CommitInfo, type ProjectionLogger } from './projection-worker.js';
