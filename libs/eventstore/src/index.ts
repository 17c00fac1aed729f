export * from './event-store.port.js';
