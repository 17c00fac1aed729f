export * from './document-store.port.js';
