// The file object of api-contract §6, and the per-item result of batch operations.
import { DomainError } from '../core/errors.js';
import { FOLDER } from './repository.js';
import type { Entry } from './tree.js';

export interface FileView {
  id: string;
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  /** null for folders. */
  mime_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface TrashView extends FileView {
  trashed_at: string;
  /** Where the item was when it was deleted. */
  original_path: string;
}

export interface BatchItem<T> {
  path: string;
  result?: T;
  error?: DomainError;
}

export function toFileView(entry: Entry): FileView {
  const r = entry.row;
  return {
    id: r.id,
    name: r.name,
    path: entry.path,
    type: r.kind === FOLDER ? 'folder' : 'file',
    size: r.kind === FOLDER ? 0 : r.size,
    mime_type: r.kind === FOLDER ? null : r.mime_type,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export function toTrashView(entry: Entry): TrashView {
  const path = entry.row.trashed_path ?? entry.path;
  return { ...toFileView({ row: entry.row, path }), trashed_at: new Date(entry.row.trashed_at ?? 0).toISOString(), original_path: path };
}

/**
 * `{results: [{<key>, code, msg, file?}]}`: code 0 per success, else the item's
 * error code. When every item failed, the request fails with the first item's
 * error (status and code) and the results as `data`, so a one-item batch
 * reads like a single operation.
 */
export function batchResult<T>(items: BatchItem<T>[], key: 'path' | 'id', view?: (t: T) => unknown): { results: unknown[] } {
  const results = items.map((i) =>
    i.error
      ? { [key]: i.path, code: i.error.code, msg: i.error.message }
      : { [key]: i.path, code: 0, msg: '', ...(view && i.result !== undefined ? { file: view(i.result) } : {}) },
  );
  const first = items[0]?.error;
  if (first && items.every((i) => i.error)) {
    throw new DomainError(first.code, first.message, { kind: first.kind, retryAfterSeconds: first.retryAfterSeconds, bodyUnread: first.bodyUnread, data: { results } });
  }
  return { results };
}
