// Test helpers of this lib, for spec files only (dependency-cruiser keeps them out of production code).
export * from './testing/document-store.contract.js';
// The MongoDB adapter's class, for specs that construct it (production code opens it lazily).
export { MongoDocumentStore } from './mongodb/mongo-document-store.adapter.js';
