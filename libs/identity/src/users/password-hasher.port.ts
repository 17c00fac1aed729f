/** Hashes and checks passwords (ADR 0065). Bound by PASSWORD_HASHER; argon2id in production. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hash`. With `hash` null (no such user) it checks against a
   * dummy hash of the same cost and answers false, so an unknown email takes as long as a
   * wrong password.
   */
  verify(hash: string | null, password: string): Promise<boolean>;
}

export const PASSWORD_HASHER = Symbol('PASSWORD_HASHER');
