export * from './contracts/event-store.contract.js';
export * from './contracts/document-store.contract.js';
