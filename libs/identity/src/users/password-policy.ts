import { randomBytes } from 'node:crypto';
import type { ErrorDetail } from '#kernel';

/**
 * NIST SP 800-63B-4 (3.1.1.2): a password that is the only factor has at least 15 characters;
 * any characters are allowed and none are required. The upper bound keeps hashing work bounded.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 256;

/** Length counted in code points, as a person counts characters. */
export function passwordProblems(password: string): ErrorDetail[] {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH)
    return [
      {
        path: 'password',
        message: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      },
    ];
  return [];
}

/** A password for the operator to hand over: 24 bytes of randomness, 32 URL-safe characters. */
export function generatePassword(random: (n: number) => Uint8Array = (n) => randomBytes(n)): string {
  return Buffer.from(random(24)).toString('base64url');
}
