// The one composition root: storage wiring and the embedded-vs-scaled adapter choice, the
// feature modules, and the api / worker / cli application modules the apps' mains start.
export { openStores, sqlitePath, type Stores } from './storage/open-stores.js';
export { StorageLifecycle, StorageModule, type StorageModuleOptions } from './storage/storage.module.js';
export { featureModules } from './features.js';
export { AppModule } from './api/app.module.js';
export { type ApiAppOptions, createApiApp } from './api/app.factory.js';
export { WorkerModule } from './worker/worker.module.js';
export { CliModule } from './cli/cli.module.js';
