export * from './projection.port.js';
