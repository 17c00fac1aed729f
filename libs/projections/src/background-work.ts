/**
 * Whether this process runs background work (projections, webhook dispatchers): the api when
 * `config.runProjections`, the worker always, the CLI never. Provided by the apps' StorageModule.
 */
export interface BackgroundWork {
  run: boolean;
}

export const BACKGROUND_WORK = Symbol('BACKGROUND_WORK');
