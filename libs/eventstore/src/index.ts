export * from './event-store.port.js';
export * from './append.validation.js';
export * from './sqlite/sqlite-event-store.adapter.js';
export * from './esdb/open-esdb-event-store.js';
export * from './decide-and-append.js';
export * from './live-event-watch.js';
