// The data directory holds the SQLite database and the stored files. Made
// (and proven writable) before anything else, so that a wrong path or a
// read-only disk is reported by name instead of as a database error.
import { accessSync, constants, mkdirSync } from 'node:fs';

export class DataDirError extends Error {}

export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new DataDirError(`cannot create the data directory ${dir}: ${(err as Error).message}`);
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new DataDirError(`cannot write to the data directory ${dir}: ${(err as Error).message}`);
  }
}
