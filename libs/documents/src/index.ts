export {
  type ApplyBatchOptions,
  type Collection,
  ConcurrentModificationError,
  type Doc,
  DOCUMENT_STORE,
  type DocumentStore,
  DuplicateKeyError,
  type FieldCondition,
  type Filter,
  type FindOptions,
  type FindResult,
  type IndexSpec,
  InvalidFilterError,
  type Scalar,
  type Sort,
  type WriteOp,
} from './document-store.port.js';
export {
  assertValidPath,
  compareDocs,
  compareStrings,
  compareValues,
  type ComparisonOp,
  type Condition,
  getPath,
  isValidPath,
  matchesConditions,
  matchesFilter,
  normalizeSort,
  parseFilter,
} from './query/document-filter.js';
export { decodeCursor, encodeCursor } from './query/document-cursor.js';
export { SqliteDocumentStore, type SqliteDocumentStoreOptions } from './sqlite/sqlite-document-store.adapter.js';
export {
  type MongoDocumentStore,
  type MongoDocumentStoreOptions,
  openMongoDocumentStore,
} from './mongodb/open-mongo-document-store.js';
