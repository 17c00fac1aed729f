// The kernel: clock, ids, errors, deciders, configuration, money, secrets. Pure TypeScript and
// Node built-ins; no Nest, no storage. Every other lib may import it.
export { type Clock, CLOCK, FakeClock, SystemClock } from './clock/clock.port.js';
export { ID_GENERATOR, ID_PREFIXES, IdGenerator, type IdPrefix, isId } from './ids/ids.js';
export { AppError, type ErrorDetail, type ErrorKind, Errors } from './errors/app-error.js';
export { APP_CONFIG, type AppConfig, configSchema, loadConfig } from './config/config.js';
export { ConfigError } from './config/config-fields.js';
export { configWarnings } from './config/billing.config.js';
export { defaultAllowedHosts, type HttpServerLimits } from './config/http.config.js';
export { type McpLimits } from './config/limits.config.js';
export { assertNever, type Decider, fold } from './decider/decider.js';
export { centsToUsd, usdToCents } from './money/money.js';
export { generateSecretKey, parseSecretKey, SecretBox, SecretBoxError, secretKeyId } from './secrets/secret-box.js';
export {
  type LoadedSecretBox,
  loadSecretBox,
  SECRET_BOX,
  type SecretKeySettings,
  SECRETS_KEY_FILE,
} from './secrets/secret-keys.js';
export { FREE_FORM_JSON_LIMITS, type JsonLimits, jsonLimitViolation } from './json/json-limits.js';
export { type MaybePromise, whenReady } from './async/maybe-promise.js';
export { BoundedCache, type BoundedCacheOptions } from './cache/bounded-cache.js';
export { DataFileError, loadDataFile, parseDataFile } from './data-files/data-file.js';
export { decodeOpaqueCursor, encodeOpaqueCursor } from './cursor/opaque-cursor.js';
