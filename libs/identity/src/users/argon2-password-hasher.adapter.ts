import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from './password-hasher.port.js';

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

/**
 * OWASP's password storage cheat sheet, first argon2id line: 19 MiB of memory, 2 passes, one
 * lane (tens of milliseconds, on libuv's thread pool, off the event loop). The parameters
 * travel in each PHC string, so raising them later still verifies older hashes.
 */
export const ARGON2ID_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The hash an unknown email is checked against, made with ARGON2ID_OPTIONS (its unit test
 * holds the two together), so that check costs what a real one costs.
 */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$pTxZBQL/3tpuXxj2lWCzkQ$+FHGJahW6iNj/jr1ilx0j5U4x80khIYidT04TMObBeQ';

export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, ARGON2ID_OPTIONS);
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    // A malformed stored hash is a refusal, not a failed request.
    const matches = await verify(stored ?? DUMMY_HASH, password).catch(() => false);
    return stored !== null && matches;
  }
}
