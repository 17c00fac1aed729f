export {
  type AllFilter,
  type AllSubscription,
  type AppendResult,
  EVENT_STORE,
  type EventStore,
  EventStoreUnavailableError,
  type ExpectedRevision,
  matchesFilter,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  WrongExpectedRevisionError,
} from './event-store.port.js';
export { checkExpectedRevision, prepareAppend, type PreparedAppend, type PreparedEvent } from './append.validation.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store.adapter.js';
export { type EsdbEventStore, type EsdbEventStoreOptions, openEsdbEventStore } from './esdb/open-esdb-event-store.js';
export {
  decideAndAppend,
  type DecideAndAppendOptions,
  type DecideAndAppendResult,
  type DomainEvent,
  type LoadedState,
  loadState,
} from './decide-and-append.js';
export { LiveEventWatch, type LiveEventWatchOptions } from './live-event-watch.js';
