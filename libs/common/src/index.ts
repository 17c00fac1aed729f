export * from './clock/clock.port.js';
export * from './ids/ids.js';
export * from './errors/app-error.js';
export * from './config/config.js';
