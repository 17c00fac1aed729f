// The value types of the configuration's variables, shared by its sections; each parses the
// text of one environment variable and says what it expected in one line.
import { z } from 'zod';
import { parseSecretKey } from '../secrets/secret-box.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The one-line refusal of a value that parsed but does not fit with the others. */
export function invalid(name: string, shown: string, reason: string): ConfigError {
  return new ConfigError(`Invalid configuration: ${name}=${shown}: ${reason}`);
}

export const trueOrFalse = (def: 'true' | 'false') =>
  z.enum(['true', 'false'], { message: 'expected true or false' }).default(def);

export const int = (def: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'expected an integer' })
    .int({ message: 'expected an integer' })
    .min(min, { message: `expected at least ${min}` })
    .max(max, { message: `expected at most ${max}` })
    .default(def);

export const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

/**
 * `name=usd,name=usd`: meter price overrides (D17). The syntax is checked here; the meter names
 * by the agent catalogue (agent-contract, `meterPrices`), which owns them.
 */
export const meterPricesUsd = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const cents: Record<string, number> = {};
    for (const part of v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([a-z][a-z_]*(?:\.[a-z_]+)+)\s*=\s*(\d+(?:\.\d{1,2})?)$/.exec(part);
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message: `expected meter=usd pairs separated by commas (e.g. read.discovery_top=4.00), got "${part}"`,
        });
        return z.NEVER;
      }
      cents[m[1]!] = Math.round(Number(m[2]) * 100);
    }
    return cents;
  });

const isSecretKey = (text: string): boolean => {
  try {
    parseSecretKey(text);
    return true;
  } catch {
    return false;
  }
};

export const secretKeyText = z.string().trim().refine(isSecretKey, {
  message: 'expected a 32-byte key: 64 hex digits or 43–44 base64 characters (e.g. `openssl rand -base64 32`)',
});

export const secretKeyList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const keys = v
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const bad = keys.findIndex((k) => !isSecretKey(k));
    if (bad >= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `key ${bad + 1}: expected 32 bytes as 64 hex digits or 43–44 base64 characters, separated by commas`,
      });
      return z.NEVER;
    }
    return keys;
  });

/** Host names (no port), comma-separated, lower-cased; `[::1]` and `::1` are the same host. */
export const hostList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const hosts = v
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter(Boolean);
    const bad = hosts.find((h) => !/^[a-z0-9.-]+$|^[0-9a-f:.]+$/.test(h));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `expected host names without port or path, separated by commas, got "${bad}"`,
      });
      return z.NEVER;
    }
    return hosts;
  });

/**
 * Web origins (`scheme://host[:port]`, no path), comma-separated; kept as the browser sends
 * them (the URL's `origin`: lower case, no default port).
 */
export const originList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const origins: string[] = [];
    for (const part of v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)) {
      let origin: string | undefined;
      try {
        const parsed = new URL(part);
        const bare = parsed.pathname === '/' && !parsed.search && !parsed.hash && !parsed.username;
        if (bare && /^https?:$/.test(parsed.protocol)) origin = parsed.origin;
      } catch {
        origin = undefined;
      }
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected origins (http(s)://host[:port], no path) separated by commas, got "${part}"`,
        });
        return z.NEVER;
      }
      origins.push(origin);
    }
    return origins;
  });

/** A hop count (`1`) or addresses / CIDR ranges; never "trust everyone". */
export const trustedProxies = z
  .string()
  .trim()
  .transform((v, ctx): number | string[] => {
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const bad = list.find((p) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p));
    if (bad !== undefined || list.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a hop count or proxy addresses / CIDR ranges separated by commas${bad ? `, got "${bad}"` : ''}`,
      });
      return z.NEVER;
    }
    return list;
  });
