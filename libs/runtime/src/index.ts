// The one composition root: storage wiring and the embedded-vs-scaled adapter choice, the
// feature modules, and the api / worker / cli application modules the apps' mains start.
export * from './storage/open-stores.js';
export * from './storage/storage.module.js';
export * from './features.js';
export * from './api/app.module.js';
export * from './api/app.factory.js';
export * from './worker/worker.module.js';
export * from './cli/cli.module.js';
