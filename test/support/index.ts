export * from './contracts/event-store.contract.js';
export * from './contracts/document-store.contract.js';
export * from './contracts/rate-limit-store.contract.js';
export * from './memory-projection.js';
