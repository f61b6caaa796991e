// Tree primitives shared by the file, trash and upload services: roots, path
// walks, `mkdir -p`, paths of rows, subtree purge and blob garbage collection.
// Methods taking a FileStore run inside the caller's transaction.
import { LRUCache } from 'lru-cache';
import { notFound, conflict } from '../core/errors.js';
import { FOLDER, isForeignKeyViolation, newFileRow, type FileRow, type FileStore } from './repository.js';
import { checkPathLimits, depthOf, joinPath } from './names.js';
import { requirePortableName } from './name-rules.js';
import type { StorageDriver } from './storage/driver.js';
import type { Clock } from '../core/clock.js';
import { TreeBatches, type Extent } from './tree-batches.js';

/** A live row with its absolute path. */
export interface Entry {
  row: FileRow;
  path: string;
  /** Set on a team folder's own entry as a member sees it (server/src/teams). */
  team?: { id: string; permission: 'read' | 'write' };
}

export interface Quotas {
  /** The user's storage quota in bytes (user override, else the group's). */
  quotaOf(userId: string): Promise<number>;
}

const ROOT_CACHE_MAX = 10_000;

export function isFolder(row: FileRow): boolean {
  return row.kind === FOLDER;
}

export class Tree {
  /** Whole-subtree deletes and copies in bounded batches (tree-batches.ts). */
  readonly batches: TreeBatches = new TreeBatches(this);
  private readonly roots = new LRUCache<string, FileRow>({ max: ROOT_CACHE_MAX });

  constructor(
    readonly store: FileStore,
    readonly storage: StorageDriver,
    readonly clock: Clock,
    private readonly log: (msg: string, err?: unknown) => void = () => undefined,
  ) {}

  /** The user's root folder, created (with the storage counters) on first use. */
  async root(ownerId: string): Promise<FileRow> {
    const cached = this.roots.get(ownerId);
    if (cached) return cached;
    let row = await this.store.tree.findRoot(ownerId);
    if (!row) {
      const now = this.clock.now();
      try {
        await this.store.transaction(async (s) => {
          await s.usage.insertIfAbsent(ownerId);
          await s.tree.insertRootIfAbsent(newFileRow({ owner_id: ownerId, parent_id: null, name: '', kind: FOLDER, created_at: now }));
        });
      } catch (err) {
        // The user row is gone (deleted while a token was still valid).
        if (isForeignKeyViolation(err)) throw notFound('User not found');
        throw err;
      }
      row = await this.store.tree.findRoot(ownerId);
      if (!row) throw notFound('User not found');
    }
    this.roots.set(ownerId, row);
    return row;
  }

  forget(ownerId: string): void {
    this.roots.delete(ownerId);
  }

  /** Serialises the user's tree changes for the rest of the transaction. */
  async lock(s: FileStore, ownerId: string): Promise<void> {
    const held = await s.usage.lock(ownerId);
    if (!held) {
      this.forget(ownerId);
      throw notFound('User not found');
    }
    if (held.audience) s.events.follow(ownerId);
  }

  /** The rows along `names` as far as they exist; stops early at a missing name or a file. */
  async walk(s: FileStore, ownerId: string, names: readonly string[]): Promise<FileRow[]> {
    const root = await this.root(ownerId);
    return s.tree.findPath(root.id, names);
  }

  async resolveIn(s: FileStore, ownerId: string, names: readonly string[]): Promise<Entry> {
    if (names.length === 0) return { row: await this.root(ownerId), path: '/' };
    const rows = await this.walk(s, ownerId, names);
    if (rows.length !== names.length) throw notFound('File not found');
    return { row: rows[rows.length - 1]!, path: joinPath(names) };
  }

  /** Resolves a folder path, creating missing folders; a file in the way is a conflict. */
  async mkdirP(s: FileStore, ownerId: string, names: readonly string[], now: number): Promise<Entry> {
    const rows = await this.walk(s, ownerId, names);
    const last = rows[rows.length - 1];
    if (last && last.kind !== FOLDER) throw conflict(`${joinPath(names.slice(0, rows.length))} is a file, not a folder`);
    let parent = last ?? (await this.root(ownerId));
    for (let i = rows.length; i < names.length; i++) {
      requirePortableName(names[i]!, 'path');
      const row = newFileRow({ owner_id: ownerId, parent_id: parent.id, name: names[i]!, kind: FOLDER, created_at: now });
      await s.tree.insert([row]);
      await s.events.record(ownerId, 'created', row, joinPath(names.slice(0, i + 1)));
      parent = row;
    }
    return { row: parent, path: joinPath(names) };
  }

  /** The absolute path of a row, or null when it is in the trash (or under a trashed folder). */
  async pathOf(s: FileStore, row: FileRow): Promise<string | null> {
    if (row.trashed_at !== null) return null;
    if (row.parent_id === null) return '/';
    const chain = await s.tree.ancestry(row.id);
    const top = chain[chain.length - 1];
    if (!top || top.parent_id !== null || top.trashed_at !== null) return null;
    return joinPath(chain.slice(0, -1).reverse().map((r) => r.name));
  }

  /**
   * The absolute paths of many of `ownerId`'s rows at once (one query): as
   * `pathOf` for each, without the rows that are not live (trashed, under a
   * trashed folder, or gone) or not the owner's.
   */
  async pathsOf(s: FileStore, ownerId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const [id, chain] of await s.tree.ancestries(ids)) {
      const top = chain[chain.length - 1];
      if (!top || chain[0]!.owner_id !== ownerId || chain[0]!.trashed_at !== null || top.parent_id !== null || top.trashed_at !== null) continue;
      out.set(id, joinPath(chain.slice(0, -1).reverse().map((r) => r.name)));
    }
    return out;
  }

  /**
   * Refuses (400/40001, naming `field`) to put `row` at the absolute `path`
   * when that path, or the path any of its descendants would then have, is
   * over the byte or depth limit (names.ts). Every operation that gives an
   * existing item a new path (rename, move, copy, restore) calls it; new
   * items are checked when their path is parsed.
   */
  async ensureFits(s: FileStore, row: FileRow, path: string, field: string, oldPath?: string): Promise<void> {
    this.ensureFitsWith(path, null, field);
    if (row.kind !== FOLDER) return;
    // No longer and no deeper than where it is: nothing below can newly pass a limit, so the subtree is not read.
    if (oldPath !== undefined && Buffer.byteLength(path, 'utf8') <= Buffer.byteLength(oldPath, 'utf8') && depthOf(path) <= depthOf(oldPath)) return;
    this.ensureFitsWith(path, await s.tree.subtreeExtent(row.id), field);
  }

  /** The same check with a known extent of the subtree below (null: the path alone). */
  ensureFitsWith(path: string, extent: Extent | null, field: string): void {
    const bytes = Buffer.byteLength(path, 'utf8');
    const depth = depthOf(path);
    if (!extent) checkPathLimits(bytes, depth, field, `the new path ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`);
    else checkPathLimits(bytes + extent.bytes, depth + extent.depth, field, 'the path of an item inside the folder');
  }

  /** Whether `ancestorId` is `row` itself or one of its ancestors. */
  async isWithin(s: FileStore, row: FileRow, ancestorId: string): Promise<boolean> {
    if (row.id === ancestorId) return true;
    return (await s.tree.ancestry(row.id)).some((r) => r.id === ancestorId);
  }

  /**
   * Marks a subtree for deletion in the caller's transaction: a live item is
   * detached first (as the trash does), so no path, listing or id reaches it
   * once this commits; `batches.finishPurge` then deletes its rows.
   */
  async markForPurge(s: FileStore, row: FileRow, path: string | null): Promise<void> {
    if (row.trashed_at === null) {
      const now = this.clock.now();
      await s.tree.update(row.id, { parent_id: null, trashed_at: now, trashed_parent_id: row.parent_id, trashed_path: path, pending: 1, updated_at: now });
    } else {
      await s.tree.markPending(row.id, 1, this.clock.now());
    }
  }

  /** Removes unreferenced blobs: bytes first, then the row, so a crash leaves only a row to retry. */
  async collectGarbage(among?: readonly string[]): Promise<number> {
    let removed = 0;
    for (const id of await this.store.blobs.unreferenced(1000, among)) {
      try {
        await this.storage.deleteBlob(id);
        if (await this.store.blobs.deleteIfUnreferenced(id)) removed++;
      } catch (err) {
        this.log(`blob ${id} could not be removed`, err);
      }
    }
    return removed;
  }

  /** The first free name in a folder: `name`, else `name (1)`, `name (2)`, ... */
  async freeName(s: FileStore, parentId: string, name: string, folder: boolean, numbered: (n: number) => string): Promise<string> {
    if (!(await s.tree.findChildFolded(parentId, name))) return name;
    for (let n = 1; n <= 1000; n++) {
      const candidate = numbered(n);
      if (!(await s.tree.findChildFolded(parentId, candidate))) return candidate;
    }
    throw conflict(`No free name for ${folder ? 'folder' : 'file'} ${name}`);
  }
}
