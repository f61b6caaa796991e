// Numeric file ids (api-contract §14): the mobile apps parse `oc:fileid` as a
// long, so each item gets a number (migration 042, assigned the first time a
// client sees it, never reused) that lives as long as the item's own id, across
// rename, move, trash restore and version restore. `oc:id` and the OC-FileId
// header are the number as Nextcloud formats them: zero-padded to 8 digits,
// then the instance id.
import { createHash } from 'node:crypto';
import { VIRTUAL_FOLDER_ID } from '../files/scopes.js';
import type { SyncRepository } from './repository.js';

/**
 * The virtual "Shared with me" folder is no item and has no row to number: it
 * gets the largest number a JavaScript number holds exactly, which the
 * counter, starting at 1, never reaches.
 */
export const VIRTUAL_FOLDER_NUMBER = Number.MAX_SAFE_INTEGER;

/** Nextcloud's instance id ("oc" and 10 lowercase letters or digits), the same on every instance of a site: from its public URL. */
export function instanceIdOf(baseUrl: string): string {
  return `oc${createHash('sha256').update(baseUrl).digest('hex').slice(0, 10)}`;
}

/** `oc:id` / OC-FileId: the number zero-padded to 8 digits, then the instance id. */
export function davFileId(number: number, instanceId: string): string {
  return `${String(number).padStart(8, '0')}${instanceId}`;
}

/** A file id as clients send it back: the number, or the `oc:id` form; undefined when it is neither. */
export function parseFileNumber(raw: string, instanceId: string): number | undefined {
  const digits = raw.endsWith(instanceId) ? raw.slice(0, -instanceId.length) : raw;
  if (!/^\d{1,16}$/.test(digits)) return undefined;
  const n = Number(digits);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

export class FileNumbers {
  constructor(
    private readonly repo: Pick<SyncRepository, 'fileNumbers' | 'fileOfNumber'>,
    readonly instanceId: string,
  ) {}

  /** The numbers of these items (assigned now for items seen for the first time). */
  async of(fileIds: readonly string[]): Promise<Map<string, number>> {
    const real = fileIds.filter((id) => id !== VIRTUAL_FOLDER_ID);
    const out = real.length ? await this.repo.fileNumbers(real) : new Map<string, number>();
    if (real.length !== fileIds.length) out.set(VIRTUAL_FOLDER_ID, VIRTUAL_FOLDER_NUMBER);
    return out;
  }

  /** The item id of a file id a client sent back (number or `oc:id`); undefined when it names no item. */
  async fileOf(raw: string): Promise<string | undefined> {
    const n = parseFileNumber(raw, this.instanceId);
    if (n === undefined) return undefined;
    if (n === VIRTUAL_FOLDER_NUMBER) return VIRTUAL_FOLDER_ID;
    return this.repo.fileOfNumber(n);
  }

  format(number: number): string {
    return davFileId(number, this.instanceId);
  }
}
