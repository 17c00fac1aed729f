import { resolve } from 'node:path';
import { z } from 'zod';

const int = (def: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'expected an integer' })
    .int({ message: 'expected an integer' })
    .min(min, { message: `expected at least ${min}` })
    .max(max, { message: `expected at most ${max}` })
    .default(def);

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

/**
 * Every environment variable the service reads, with its default. README's configuration
 * table mirrors this schema; keep them together.
 */
export const configSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  SVC_DATA_DIR: z.string().min(1).default('./data'),
  SVC_ENV: z.enum(['test', 'live'], { message: 'expected test or live' }).default('test'),
  EVENTSTORE_URL: url(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']).optional(),
  MONGODB_URL: url(['mongodb', 'mongodb+srv']).optional(),
  MONGODB_DATABASE: z.string().min(1).default('svc'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_PUBLIC_URL: url(['http', 'https']).optional(),
  /** Run projections (and later the dispatcher) inside the API process. Default: only when embedded. */
  SVC_RUN_PROJECTIONS: z.enum(['true', 'false', 'auto']).default('auto'),
  SVC_READ_YOUR_WRITES_TIMEOUT_MS: int(5000, 0, 60000),
});

type Raw = z.infer<typeof configSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  env: 'test' | 'live';
  eventStoreUrl?: string;
  mongoUrl?: string;
  mongoDatabase: string;
  logLevel: Raw['LOG_LEVEL'];
  publicUrl?: string;
  runProjections: boolean;
  readYourWritesTimeoutMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings mean "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`);
  }
  const c = parsed.data;
  const embedded = !c.EVENTSTORE_URL && !c.MONGODB_URL;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: resolve(c.SVC_DATA_DIR),
    env: c.SVC_ENV,
    eventStoreUrl: c.EVENTSTORE_URL,
    mongoUrl: c.MONGODB_URL,
    mongoDatabase: c.MONGODB_DATABASE,
    logLevel: c.LOG_LEVEL,
    publicUrl: c.SVC_PUBLIC_URL?.replace(/\/+$/, ''),
    runProjections: c.SVC_RUN_PROJECTIONS === 'auto' ? embedded : c.SVC_RUN_PROJECTIONS === 'true',
    readYourWritesTimeoutMs: c.SVC_READ_YOUR_WRITES_TIMEOUT_MS,
  };
}
