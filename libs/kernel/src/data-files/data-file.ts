/**
 * Content kept as data (catalogue tables, guidance texts, word lists): a YAML file beside the
 * code that reads it, parsed and checked against a zod schema once, when its module loads. A
 * bad file stops the start with its path and the failing field, never a half-read table.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { z } from 'zod';

export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** Parses `text` (the file at `path`) with `schema`; the error names the file and each bad field. */
export function parseDataFile<S extends z.ZodType>(path: string, text: string, schema: S): z.output<S> {
  let raw: unknown;
  try {
    // Core schema: `no`, `on` and dates stay strings; duplicate keys are an error.
    raw = parse(text, { schema: 'core', uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    throw new DataFileError(`${path}: not valid YAML: ${(error as Error).message}`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const fields = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw new DataFileError(`${path}: ${fields}`);
  }
  return result.data;
}

/**
 * Reads the data file `name` beside the calling module (`import.meta.url`); the build copies
 * data files into dist/ next to the compiled modules, so the api, worker and CLI all find them.
 */
export function loadDataFile<S extends z.ZodType>(moduleUrl: string, name: string, schema: S): z.output<S> {
  const path = fileURLToPath(new URL(name, moduleUrl));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DataFileError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  return parseDataFile(path, text, schema);
}
