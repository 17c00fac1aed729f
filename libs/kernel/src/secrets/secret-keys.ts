import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecretKey, parseSecretKey, SecretBox, SecretBoxError } from './secret-box.js';

/** The key file used when SVC_SECRETS_KEY is unset (embedded default). */
export const SECRETS_KEY_FILE = 'secrets.key';

export interface SecretKeySettings {
  /** SVC_SECRETS_KEY, when set. */
  secretsKey?: string;
  /** SVC_SECRETS_OLD_KEYS: keys that only open what they sealed (rotation). */
  secretsOldKeys: readonly string[];
  dataDir: string;
}

/**
 * The SecretBox of this process: SVC_SECRETS_KEY when set; otherwise the key in
 * `{SVC_DATA_DIR}/secrets.key`, made on first use (mode 0600). Two processes starting at once
 * agree: the file is written aside and linked into place, which fails for the second, which then
 * reads the first's. `keyFile` tells where the key came from (null: the environment).
 */
/** The process's secrets key, loaded once (the runtime provides it under SECRET_BOX). */
export interface LoadedSecretBox {
  box: SecretBox;
  /** Where the key came from: its file, or null for SVC_SECRETS_KEY. */
  keyFile: string | null;
}

export const SECRET_BOX = Symbol('SECRET_BOX');

export function loadSecretBox(settings: SecretKeySettings): LoadedSecretBox {
  const old = settings.secretsOldKeys.map((k) => parseSecretKey(k));
  if (settings.secretsKey) return { box: new SecretBox(parseSecretKey(settings.secretsKey), old), keyFile: null };
  const file = join(settings.dataDir, SECRETS_KEY_FILE);
  return { box: new SecretBox(readOrCreateKey(file), old), keyFile: file };
}

function readOrCreateKey(file: string): Buffer {
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(join(file, '..'), { recursive: true });
  const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(aside, `${generateSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  const key = readKeyFile(file);
  if (!key) throw new SecretBoxError(`${file} is empty`);
  return key;
}

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return parseSecretKey(text);
  } catch (error) {
    throw new SecretBoxError(`${file}: ${(error as Error).message}`);
  }
}
