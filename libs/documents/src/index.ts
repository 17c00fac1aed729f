export * from './document-store.port.js';
export * from './query/document-filter.js';
export * from './query/document-cursor.js';
export * from './sqlite/sqlite-document-store.adapter.js';
export * from './mongodb/open-mongo-document-store.js';
