// The kernel: clock, ids, errors, deciders, configuration, money, secrets. Pure TypeScript and
// Node built-ins; no Nest, no storage. Every other lib may import it.
export * from './clock/clock.port.js';
export * from './ids/ids.js';
export * from './errors/app-error.js';
export * from './config/config.js';
export * from './decider/decider.js';
export * from './money/money.js';
export * from './secrets/secret-box.js';
export * from './secrets/secret-keys.js';
export * from './json/json-limits.js';
export * from './async/maybe-promise.js';
export * from './cache/bounded-cache.js';
export * from './data-files/data-file.js';
export * from './cursor/opaque-cursor.js';
