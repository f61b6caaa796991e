// The file tree's public API: resolve paths and ids, list folders, read bytes,
// zip folders, and the tree operations (create, rename, move, copy, delete).
// Other features (share links, WebDAV) build on the methods marked "public API".
// Every change runs in one transaction that first locks the user's storage
// row, so a user's tree changes are serialised and checks cannot go stale.
import { Transfers } from './transfers.js';
import { Readable } from 'node:stream';
import { DomainError, ErrorCode, badRequest, conflict, notFound } from '../core/errors.js';
import { FILE, FOLDER, isUniqueViolation, newFileRow, type FileRow, type FileStore } from './repository.js';
import { SimulatedCrash, type BuiltCopy } from './tree-batches.js';
import { childPath, copyName, joinPath, parseName, parsePath } from './names.js';
import { requirePortableName } from './name-rules.js';
import { mimeFor } from './mime.js';
import type { Entry, Quotas, Tree } from './tree.js';
import { ZipArchive, type BlobOpener, type ZipEntry } from './zip.js';
import type { ByteRange } from './storage/driver.js';
import type { BatchItem, MediaView } from './views.js';
import type { Clock } from '../core/clock.js';
import { replaceByMove } from './version-swap.js';
import { OWN_TREE, VIRTUAL_FOLDER_ID, type Need, type PathScopes, type Scope } from './scopes.js';
import type { ActivityType } from './events/audience.js';
import type { Actor } from '../core/actor.js';

/** Changes a folder archive's entries once their sizes and CRCs are known (a share link's pictures without their location). */
export type ArchiveEdit = (entries: ZipEntry[], open: BlobOpener) => Promise<ZipEntry[]>;

/** The kinds of a file row, for features that look at entries (shares). */
export { FILE, FOLDER };

/** What the file feature needs from media/ (MediaService satisfies it). */
export interface MediaPort {
  mediaOf(blobId: string): Promise<MediaView | null>;
}

export interface ListPage {
  entries: Entry[];
  nextPageToken: string | null;
}

export const MAX_PAGE_SIZE = 1000;

/** A listing's order. Folders always come first; `name` is byte order. */
export interface ListSort {
  by: 'name' | 'size' | 'updated_at';
  desc: boolean;
}
const DEFAULT_SORT: ListSort = { by: 'name', desc: false };

// Tokens of a sorted listing name the folder and the order they belong to, so
// one replayed against another order is refused instead of skipping entries.
function encodeSortedToken(folderId: string, sort: ListSort, row: FileRow): string {
  const value = sort.by === 'name' ? row.name : Number(row[sort.by]);
  return Buffer.from(JSON.stringify([folderId, sort.by, sort.desc ? 1 : 0, row.kind, value, row.name]), 'utf8').toString('base64url');
}

function decodeSortedToken(token: string, folderId: string, sort: ListSort): { kind: number; value: number | string; name: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('next_page_token: is not a token from this listing');
  }
  const ok =
    Array.isArray(parsed) && parsed.length === 6 && parsed[0] === folderId && parsed[1] === sort.by && parsed[2] === (sort.desc ? 1 : 0) &&
    (parsed[3] === FOLDER || parsed[3] === FILE) && (sort.by === 'name' ? typeof parsed[4] === 'string' : Number.isSafeInteger(parsed[4])) &&
    typeof parsed[5] === 'string' && !parsed[5].includes('\u0000');
  if (!ok) throw badRequest('next_page_token: is not a token from this listing (or of another order)');
  const p = parsed as [string, string, number, number, number | string, string];
  return { kind: p[3], value: p[4], name: p[5] };
}
export const MAX_ZIP_ENTRIES = 250_000;

function encodeToken(folderId: string, row: FileRow): string {
  return Buffer.from(JSON.stringify([folderId, row.kind, row.name]), 'utf8').toString('base64url');
}

function decodeToken(token: string, folderId: string): { kind: number; name: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('next_page_token: is not a token from this listing');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== folderId || (parsed[1] !== FOLDER && parsed[1] !== FILE) || typeof parsed[2] !== 'string' || parsed[2].includes('\u0000')) {
    throw badRequest('next_page_token: is not a token from this listing');
  }
  return { kind: parsed[1] as number, name: parsed[2] };
}

export class FilesService {
  /** Whose tree a path names (sharing maps "/Shared with me/…"); each public method taking a path asks it first. */
  private scopes: PathScopes = OWN_TREE;
  /** Uploads and downloads in flight per account or link (files/transfers.ts); set by the module. */
  transfers: Transfers = new Transfers();

  constructor(
    readonly tree: Tree,
    private readonly quotas: Quotas,
    readonly clock: Clock,
  ) {}

  /** What media/ learnt about a blob (set at start-up; without it file/info has no `media`). */
  private media: MediaPort | null = null;

  useMedia(port: MediaPort): void {
    this.media = port;
  }

  /** The metadata of a file's content, when media/ knows it. */
  async mediaOf(entry: Entry): Promise<MediaView | null> {
    if (!this.media || entry.row.kind !== FILE || !entry.row.blob_id) return null;
    return this.media.mediaOf(entry.row.blob_id);
  }

  /** Set once at start-up by the sharing feature. */
  useScopes(scopes: PathScopes): void {
    this.scopes = scopes;
  }

  /** The form of `path` to store for later (PathScopes.anchor): a path, or an anchor naming a grant. */
  async anchorPath(actorId: string, path: string): Promise<string> {
    return (await this.scopes.anchor?.(actorId, parsePath(path, 'path'))) ?? path;
  }

  /** The path a stored form names now (paths stay as they are). */
  async anchoredPath(actorId: string, stored: string): Promise<string> {
    if (stored.startsWith('/')) return stored;
    return (await this.scopes.unanchor?.(actorId, stored)) ?? stored;
  }

  /** Public API: the owner's tree and names that `actorId`'s path stands for, if `need` is allowed there. */
  async scope(actorId: string, path: string | string[], need: Need, field = 'path'): Promise<Scope> {
    return this.scopes.scope(actorId, typeof path === 'string' ? parsePath(path, field) : path, need);
  }

  /** Both ends of a move or copy must be in one owner's tree (a share's contents stay in it). */
  private sameTree(a: Scope, b: Scope): void {
    if (a.ownerId !== b.ownerId) {
      throw new DomainError(ErrorCode.Forbidden, 'Items cannot be moved or copied between your files and files shared with you (download and upload them instead)');
    }
  }

  private get store(): FileStore {
    return this.tree.store;
  }

  // ---- public API ----------------------------------------------------------

  /** Public API: the live item at an absolute path of the owner's tree; 404 otherwise. */
  async resolve(actorId: string, path: string, field = 'path'): Promise<Entry> {
    const sc = await this.scope(actorId, path, 'read', field);
    return sc.virtual ?? sc.view(await this.tree.resolveIn(this.store, sc.ownerId, sc.names));
  }

  /**
   * Public API: the live item at `path` or null and, from the same walk,
   * whether its parent is a folder (a WebDAV PUT or MKCOL needs both: one
   * walk instead of two). `parentFolder` is null where the walk cannot say
   * (a path no source resolves, a virtual folder): ask `resolve` then.
   */
  async probe(actorId: string, path: string): Promise<{ entry: Entry | null; parentFolder: boolean | null }> {
    let sc: Scope;
    try {
      sc = await this.scope(actorId, path, 'read');
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) return { entry: null, parentFolder: null };
      throw err;
    }
    if (sc.virtual) return { entry: sc.virtual, parentFolder: null };
    if (sc.names.length === 0) return { entry: sc.view(await this.tree.resolveIn(this.store, sc.ownerId, [])), parentFolder: null };
    const rows = await this.tree.walk(this.store, sc.ownerId, sc.names);
    const last = rows[rows.length - 1];
    if (rows.length === sc.names.length) return { entry: sc.view({ row: last!, path: joinPath(sc.names) }), parentFolder: true };
    // The walk stops at a missing name or at a file: the parent is a folder only when just the last name is missing below one.
    return { entry: null, parentFolder: rows.length === sc.names.length - 1 && (last === undefined || last.kind === FOLDER) };
  }

  /**
   * Public API: which of `paths` name a live item (a missing parent folder is
   * "does not exist"). An item's result is its entry or null; a path that is
   * not a valid path gets its 40001 error as the item's result, so one bad
   * name does not fail the others.
   */
  async existing(actorId: string, paths: string[]): Promise<BatchItem<Entry | null>[]> {
    return this.batch(paths, async (names) => {
      try {
        const sc = await this.scopes.scope(actorId, names, 'read');
        return sc.virtual ?? sc.view(await this.tree.resolveIn(this.store, sc.ownerId, sc.names));
      } catch (err) {
        if (err instanceof DomainError && err.code === ErrorCode.NotFound) return null;
        throw err;
      }
    });
  }

  /** Public API: a path relative to a folder (e.g. a shared folder); `/` is the folder itself. */
  async resolveUnder(base: Entry, relativePath: string, field = 'path'): Promise<Entry> {
    let current = base;
    for (const name of parsePath(relativePath, field)) {
      if (current.row.kind !== FOLDER) throw notFound('File not found');
      const child = await this.store.tree.findChild(current.row.id, name);
      if (!child) throw notFound('File not found');
      current = { row: child, path: childPath(current.path, name) };
    }
    return current;
  }

  /** Public API: a live (not trashed) item of the owner by id; 404 otherwise. */
  async getById(actorId: string, id: string): Promise<Entry> {
    const row = await this.store.tree.findAnyById(id);
    let path = row ? await this.tree.pathOf(this.store, row) : null;
    // Someone else's item is reached only inside what they shared, under its shared path.
    if (row && path !== null && row.owner_id !== actorId) path = await this.scopes.pathOfRow(actorId, row);
    if (!row || path === null) throw notFound('File not found');
    return { row, path };
  }

  /**
   * Public API: the paths of `ownerId`'s own live items among `ids`, resolved
   * in one query (listings of many items, such as the photos page); the
   * others (trashed, gone, someone else's) are absent.
   */
  ownPaths(ownerId: string, ids: readonly string[]): Promise<Map<string, string>> {
    return this.tree.pathsOf(this.store, ownerId, ids);
  }

  /** Public API: where a live row is in its owner's tree (null: in the trash, or gone). */
  ownerPathOf(row: FileRow): Promise<string | null> {
    return this.tree.pathOf(this.store, row);
  }

  /** Public API: entries shown at the top of `actorId`'s own tree besides its rows ("Shared with me"; WebDAV lists them). */
  atRoot(actorId: string): Promise<Entry[]> {
    return this.scopes.atRoot(actorId);
  }

  /** Public API: the items of other trees `actorId` reaches (shared with them), at the paths they address them by. */
  reachable(actorId: string): Promise<Entry[]> {
    return this.scopes.roots(actorId);
  }

  /**
   * Public API: the path of `row` as seen through one of `roots` (from
   * `reachable`): the root's path and the names below it; null when the row
   * is not (or no longer) live under any of them.
   */
  async pathWithin(row: FileRow, roots: ReadonlyMap<string, Entry>): Promise<string | null> {
    const chain = await this.store.tree.ancestry(row.id);
    const names: string[] = [];
    for (const r of chain) {
      const root = roots.get(r.id);
      if (root) return names.length ? `${root.path === '/' ? '' : root.path}/${names.reverse().join('/')}` : root.path;
      // A detached row (trashed, or being deleted) ends the chain before any root: not live.
      if (r.trashed_at !== null) return null;
      names.push(r.name);
    }
    return null;
  }

  /** Public API: a live item by id whoever owns it, for capability URLs (signed links, shares). */
  async getLiveById(id: string): Promise<Entry> {
    const row = await this.store.tree.findAnyById(id);
    const path = row ? await this.tree.pathOf(this.store, row) : null;
    if (!row || path === null) throw notFound('File not found');
    return { row, path };
  }

  /** Public API: one page of a folder, folders first then names in byte order; stable under inserts. */
  async list(folder: Entry, pageSize: number, pageToken?: string, sort: ListSort = DEFAULT_SORT): Promise<ListPage> {
    if (folder.row.kind !== FOLDER) throw badRequest('path: is a file, not a folder');
    if (folder.row.id === VIRTUAL_FOLDER_ID) return { entries: await this.scopes.listVirtual(folder.row.owner_id), nextPageToken: null };
    const size = Math.min(Math.max(1, pageSize), MAX_PAGE_SIZE);
    if (sort.by !== 'name' || sort.desc) return this.listSorted(folder, size, pageToken, sort);
    const after = pageToken ? decodeToken(pageToken, folder.row.id) : null;
    const rows = await this.store.tree.listChildren(folder.row.id, after, size + 1);
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return {
      entries: [...(await this.top(folder, pageToken)), ...page.map((row) => ({ row, path: childPath(folder.path, row.name) }))],
      nextPageToken: rows.length > size && last ? encodeToken(folder.row.id, last) : null,
    };
  }

  /** Team folders, first on the first page of the asker's own root folder (the only entry with path "/"). */
  private async top(folder: Entry, pageToken: string | undefined): Promise<Entry[]> {
    if (pageToken || folder.path !== '/' || folder.row.parent_id !== null || !this.scopes.listTop) return [];
    return this.scopes.listTop(folder.row.owner_id);
  }

  private async listSorted(folder: Entry, size: number, pageToken: string | undefined, sort: ListSort): Promise<ListPage> {
    const after = pageToken ? decodeSortedToken(pageToken, folder.row.id, sort) : null;
    const rows: FileRow[] = [];
    // Folders, then files: each kind is read from where the token left off (or from its start).
    for (const kind of [FOLDER, FILE]) {
      if (after && kind < after.kind) continue;
      const from = after && kind === after.kind ? { value: after.value, name: after.name } : null;
      rows.push(...(await this.store.tree.listChildrenOfKind(folder.row.id, kind, sort.by, sort.desc, from, size + 1 - rows.length)));
      if (rows.length > size) break;
    }
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return {
      entries: [...(await this.top(folder, pageToken)), ...page.map((row) => ({ row, path: childPath(folder.path, row.name) }))],
      nextPageToken: rows.length > size && last ? encodeSortedToken(folder.row.id, sort, last) : null,
    };
  }

  /** Public API: the bytes of a file, or an inclusive range of them. */
  async openRead(file: Entry, range?: ByteRange): Promise<Readable> {
    if (file.row.kind !== FILE) throw badRequest('path: is a folder, not a file');
    if (!file.row.blob_id || file.row.size === 0) return Readable.from([]);
    return this.tree.storage.read(file.row.blob_id, range);
  }

  /** Public API: a URL of the store that serves the file directly, when the driver offers one (presigned downloads). */
  async directUrl(file: Entry, headers: { contentDisposition: string; contentType: string }): Promise<string | null> {
    if (file.row.kind !== FILE || !file.row.blob_id || file.row.size === 0 || !this.tree.storage.downloadUrl) return null;
    return this.tree.storage.downloadUrl(file.row.blob_id, headers);
  }

  /** Public API: a folder as a ZIP archive (size and ETag known up front; streams any range). */
  async archive(folder: Entry, edit?: ArchiveEdit): Promise<ZipArchive> {
    if (folder.row.kind !== FOLDER || folder.row.id === VIRTUAL_FOLDER_ID) throw badRequest('path: is not a folder of files');
    const out: ZipEntry[] = [];
    // The root is zipped without a top folder; any other folder under its own name.
    await this.appendToZip(out, folder.row, folder.row.parent_id === null ? '' : folder.row.name);
    return this.zipOf(out, edit);
  }

  /**
   * Public API: several items (files and folders, possibly from different
   * folders, e.g. search results) as one ZIP. Each item sits at the top of
   * the archive under its name; a repeated name gets " (2)", " (3)", … so no
   * entry overwrites another when unpacked.
   */
  async archiveMany(items: readonly Entry[]): Promise<ZipArchive> {
    const out: ZipEntry[] = [];
    const taken = new Set<string>();
    const unique = (name: string, isFolder: boolean) => {
      const dot = isFolder ? -1 : name.lastIndexOf('.');
      const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
      let candidate = name;
      for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
      // Case-insensitive: unpacked on Windows or macOS, "A.txt" and "a.txt" are one file.
      taken.add(candidate.toLowerCase());
      return candidate;
    };
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.row.id)) continue;
      seen.add(item.row.id);
      // A team folder is a root too, but its members know it by its name.
      const isRoot = item.row.parent_id === null && item.row.kind === FOLDER && !item.team;
      await this.appendToZip(out, item.row, unique(isRoot ? 'files' : item.row.name, item.row.kind === FOLDER));
    }
    return this.zipOf(out);
  }

  private async zipOf(entries: ZipEntry[], edit?: ArchiveEdit): Promise<ZipArchive> {
    const blobIds = entries.flatMap((e) => (e.blobId ? [e.blobId] : []));
    const blobs = await this.store.blobs.findMany(blobIds);
    for (const e of entries) {
      const blob = e.blobId ? blobs.get(e.blobId) : undefined;
      e.size = blob ? blob.size : 0;
      e.crc32 = blob ? blob.crc32 : 0;
      e.blobId = blob && blob.size > 0 ? blob.id : null;
    }
    const open: BlobOpener = (blobId, range) => this.tree.storage.read(blobId, range);
    return new ZipArchive(edit ? await edit(entries, open) : entries, open);
  }

  /**
   * Appends a file, or a folder and everything under it, at `name` ('' = the
   * folder's contents at the top). Entries name their parent entry instead of
   * repeating its path (zip.ts), so the plan's memory follows the entry count.
   */
  private async appendToZip(out: ZipEntry[], row: FileRow, name: string): Promise<void> {
    const tooMany = () => new DomainError(ErrorCode.TooLarge, `More than ${MAX_ZIP_ENTRIES} items cannot be zipped`);
    if (row.kind === FILE) {
      if (out.length + 1 > MAX_ZIP_ENTRIES) throw tooMany();
      // Sizes and CRCs are filled from the blobs in zipOf, in one query for the whole archive.
      out.push({ name, size: 0, crc32: 0, mtimeMs: row.updated_at, blobId: row.blob_id });
      return;
    }
    const rows = await this.store.tree.subtree(row.id);
    if (out.length + rows.length > MAX_ZIP_ENTRIES) throw tooMany();
    const children = new Map<string, FileRow[]>();
    for (const r of rows) {
      if (r.depth === 0 || r.parent_id === null) continue;
      const list = children.get(r.parent_id) ?? [];
      list.push(r);
      children.set(r.parent_id, list);
    }
    let top = -1;
    if (name) {
      top = out.length;
      out.push({ name: `${name}/`, size: 0, crc32: 0, mtimeMs: row.updated_at, blobId: null });
    }
    // Depth-first, each folder's entries right after it, with an explicit stack (no recursion on deep trees).
    const sorted = (parentId: string) =>
      (children.get(parentId) ?? []).sort((a, b) => a.kind - b.kind || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const stack = [{ list: sorted(row.id), next: 0, index: top }];
    while (stack.length) {
      const frame = stack[stack.length - 1]!;
      const r = frame.list[frame.next++];
      if (!r) {
        stack.pop();
        continue;
      }
      if (r.kind === FOLDER) {
        stack.push({ list: sorted(r.id), next: 0, index: out.length });
        out.push({ name: `${r.name}/`, parent: frame.index, size: 0, crc32: 0, mtimeMs: r.updated_at, blobId: null });
      } else {
        out.push({ name: r.name, parent: frame.index, size: 0, crc32: 0, mtimeMs: r.updated_at, blobId: r.blob_id });
      }
    }
  }

  async capacity(ownerId: string): Promise<{ used: number; total: number; versions: number; reserved: number }> {
    await this.tree.root(ownerId);
    const usage = await this.store.usage.get(ownerId);
    // `used` includes the versions; `versions` says how much of it they are.
    // `reserved` is what uploads in flight hold (strangers' through upload links too): the space they take before it is used.
    return { used: usage?.used ?? 0, total: await this.quotas.quotaOf(ownerId), versions: await this.store.versions.bytesOf(ownerId), reserved: usage?.reserved ?? 0 };
  }

  // ---- operations ------------------------------------------------------------

  /** Adds an entry to the history of the item `fileId` of `ownerId`'s tree (activity/), inside `mutate`; nothing when it is gone. */
  async noteActivity(s: FileStore, ownerId: string, fileId: string, type: ActivityType): Promise<void> {
    const row = await s.tree.findById(ownerId, fileId);
    const path = row ? await this.tree.pathOf(s, row) : null;
    if (row && path !== null) await s.events.note(ownerId, type, row, path);
  }

  /** Adds an entry to a live row's history that changes nothing in the tree (a link download), outside any transaction. */
  async noteAccess(row: FileRow, type: ActivityType, actor: Actor): Promise<void> {
    const path = await this.tree.pathOf(this.store, row);
    if (path !== null) await this.store.events.note(row.owner_id, type, row, path, null, actor);
  }

  /**
   * A transaction holding the user's tree lock; unique-index races surface as
   * 409. `by`: who makes the change, for its history (core/actor.ts); null
   * when no one asked for it (jobs), and the owner stands for them.
   */
  async mutate<T>(ownerId: string, fn: (s: FileStore) => Promise<T>, by: Actor | null): Promise<T> {
    await this.tree.root(ownerId);
    try {
      return await this.store.transaction(async (s) => {
        await this.tree.lock(s, ownerId);
        return fn(s);
      }, by);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('An item with this name already exists (names that differ only in case are the same name)');
      throw err;
    }
  }

  /** Creates a folder or an empty file; missing parent folders are created. */
  async create(actorId: string, path: string, type: 'file' | 'folder'): Promise<Entry> {
    const sc = await this.scope(actorId, path, 'write');
    const { ownerId, names } = sc;
    if (names.length === 0) throw conflict('The root folder already exists');
    const name = names[names.length - 1]!;
    return this.mutate(ownerId, async (s) => {
      const now = this.clock.now();
      const parent = await this.tree.mkdirP(s, ownerId, names.slice(0, -1), now);
      const taken = await s.tree.findChildFolded(parent.row.id, name);
      if (taken) throw conflict(taken.name === name ? `${joinPath(names)} already exists` : `${joinPath(names)}: "${taken.name}" already exists (names that differ only in case are the same name)`);
      requirePortableName(name, 'path');
      const row = newFileRow({
        owner_id: ownerId, parent_id: parent.row.id, name, kind: type === 'folder' ? FOLDER : FILE, mime_type: type === 'folder' ? null : mimeFor(name), created_at: now,
      });
      await s.tree.insert([row]);
      await s.events.record(ownerId, 'created', row, joinPath(names));
      return sc.view({ row, path: joinPath(names) });
    }, { id: actorId });
  }

  async rename(actorId: string, path: string, newName: string): Promise<Entry> {
    const sc = await this.scope(actorId, path, 'structure');
    const { ownerId, names } = sc;
    const name = parseName(newName, 'new_name');
    if (names.length === 0) throw badRequest('path: the root folder cannot be renamed');
    requirePortableName(name, 'new_name');
    return this.mutate(ownerId, async (s) => {
      const entry = await this.tree.resolveIn(s, ownerId, names);
      const target = joinPath([...names.slice(0, -1), name]);
      if (entry.row.name === name) return sc.view(entry);
      const taken = await s.tree.findChildFolded(entry.row.parent_id!, name);
      // A change of case only is the item itself.
      if (taken && taken.id !== entry.row.id) throw conflict(taken.name === name ? `${target} already exists` : `${target}: "${taken.name}" already exists (names that differ only in case are the same name)`);
      await this.tree.ensureFits(s, entry.row, target, 'new_name', entry.path);
      const now = this.clock.now();
      // named_at: how long a "Shared with me" label has been held (sharing/resolver.ts).
      const patch = { name, updated_at: now, named_at: now, ...(entry.row.kind === FILE ? { mime_type: mimeFor(name) } : {}) };
      await s.tree.update(entry.row.id, patch);
      await s.events.record(ownerId, 'moved', entry.row, target, entry.path);
      return sc.view({ row: { ...entry.row, ...patch }, path: target });
    }, { id: actorId });
  }

  /** Sets a file's modified time (a sync client's X-OC-Mtime, api-contract §14); its content and ETag stay. */
  async setModified(actorId: string, path: string, at: number): Promise<Entry> {
    const sc = await this.scope(actorId, path, 'write');
    return this.mutate(sc.ownerId, async (s) => {
      const entry = await this.tree.resolveIn(s, sc.ownerId, sc.names);
      await s.tree.update(entry.row.id, { updated_at: at });
      return sc.view({ row: { ...entry.row, updated_at: at }, path: entry.path });
    }, { id: actorId });
  }

  /**
   * Moves (metadata only; the modified time stays) or copies (blobs shared,
   * quota charged) each path into the folder `dst`. A copy into the source's
   * own folder gets a "(copy)" name; a move there is a no-op. A copy is built
   * hidden in batches and revealed in one last step (tree-batches.ts).
   */
  async transfer(actorId: string, paths: string[], dst: string, copy: boolean): Promise<BatchItem<Entry>[]> {
    const to = await this.scope(actorId, dst, 'write', 'dst');
    const { ownerId, names: dstNames } = to;
    const quota = copy ? await this.quotas.quotaOf(ownerId) : 0;
    return this.batch(paths, async (actorNames) => {
      const from = await this.scopes.scope(actorId, actorNames, copy ? 'read' : 'structure');
      this.sameTree(from, to);
      const names = from.names;
      if (names.length === 0) throw badRequest(`paths: the root folder cannot be ${copy ? 'copied' : 'moved'}`);
      const plan = await this.mutate(ownerId, async (s) => {
        const src = await this.tree.resolveIn(s, ownerId, names);
        const target = await this.tree.resolveIn(s, ownerId, dstNames);
        if (target.row.kind !== FOLDER) throw conflict('dst: is a file, not a folder');
        if (src.row.kind === FOLDER && (await this.tree.isWithin(s, target.row, src.row.id))) {
          throw badRequest(`dst: a folder cannot be ${copy ? 'copied' : 'moved'} into itself or one of its subfolders`);
        }
        if (!copy && src.row.parent_id === target.row.id) return { kind: 'done' as const, done: src };
        let name = src.row.name;
        if (copy && src.row.parent_id === target.row.id) {
          // A copy in its own folder is named "name (copy).ext", "name (copy 2).ext", … (as Google Drive and Nextcloud do).
          const folder = src.row.kind === FOLDER;
          name = copyName(src.row.name, 1, folder);
          for (let n = 2; (await s.tree.findChildFolded(target.row.id, name)) && n <= 1000; n++) name = copyName(src.row.name, n, folder);
          if (await s.tree.findChildFolded(target.row.id, name)) throw conflict(`No free name for a copy of ${src.path}`);
        }
        const path = childPath(target.path, name);
        if (await s.tree.findChildFolded(target.row.id, name)) throw conflict(`${path} already exists (names that differ only in case are the same name)`);
        // A copy's subtree is measured from its snapshot (buildCopy), outside this transaction.
        if (copy) {
          this.tree.ensureFitsWith(path, null, 'dst');
          return { kind: 'copy' as const, source: src.row, target: target.row, path, name };
        }
        await this.tree.ensureFits(s, src.row, path, 'dst', src.path);
        // A move changes where the item is, not its content: the modified time stays.
        const patch = { parent_id: target.row.id };
        await s.tree.update(src.row.id, patch);
        await s.events.record(ownerId, 'moved', src.row, path, src.path);
        return { kind: 'done' as const, done: { row: { ...src.row, ...patch }, path } };
      }, { id: actorId });
      if (plan.kind === 'done') return to.view(plan.done);
      const built = await this.tree.batches.buildCopy(ownerId, plan.source, plan.name, quota, {
        shallow: false,
        check: (extent) => this.tree.ensureFitsWith(plan.path, extent, 'dst'),
      });
      return to.view((await this.reveal(actorId, ownerId, built, plan.target.id, 'dst', null)).entry);
    });
  }

  /**
   * Public API (WebDAV MOVE/COPY): moves or copies `src` to the absolute path
   * `dst` (a new name allowed). The destination's parent must exist (409).
   * An existing destination is moved to the trash first when `overwrite`,
   * else 412. `shallow` copies a folder without its members (Depth: 0).
   * Returns the new entry, whether something was replaced, and for copies the
   * ids of the copied rows (source id -> copy id).
   */
  async relocate(
    actorId: string,
    src: string,
    dst: string,
    options: { copy: boolean; overwrite: boolean; shallow?: boolean },
  ): Promise<{ entry: Entry; replaced: boolean; copies: Map<string, string> }> {
    const from = await this.scope(actorId, src, options.copy ? 'read' : 'structure');
    const to = await this.scope(actorId, dst, 'structure', 'destination');
    this.sameTree(from, to);
    const ownerId = to.ownerId;
    const srcNames = from.names;
    const dstNames = to.names;
    if (srcNames.length === 0 || dstNames.length === 0) throw new DomainError(ErrorCode.Forbidden, 'The root folder cannot be moved, copied or replaced');
    const quota = options.copy ? await this.quotas.quotaOf(ownerId) : 0;
    const name = dstNames[dstNames.length - 1]!;
    const path = joinPath(dstNames);
    const freed: string[] = [];
    const plan = await this.mutate(ownerId, async (s) => {
      const source = await this.tree.resolveIn(s, ownerId, srcNames);
      const parentRows = await this.tree.walk(s, ownerId, dstNames.slice(0, -1));
      const parentRow = dstNames.length === 1 ? await this.tree.root(ownerId) : parentRows[dstNames.length - 2];
      if (!parentRow || parentRows.length !== dstNames.length - 1 || parentRow.kind !== FOLDER) throw conflict('The destination folder does not exist');
      if (parentRow.id === source.row.parent_id && name === source.row.name) throw new DomainError(ErrorCode.Forbidden, 'The source and the destination are the same');
      if (source.row.kind === FOLDER && (await this.tree.isWithin(s, parentRow, source.row.id))) {
        throw new DomainError(ErrorCode.Forbidden, 'A folder cannot be moved or copied into itself');
      }
      if (name !== source.row.name) requirePortableName(name, 'destination');
      // The destination is taken by a name equal to it case-insensitively; the source itself when only the case changes.
      const folded = await s.tree.findChildFolded(parentRow.id, name);
      const existing = folded && folded.id !== source.row.id ? folded : undefined;
      if (existing && !options.overwrite) throw new DomainError(ErrorCode.Conflict, 'The destination exists', { kind: 'precondition_failed' });
      if (options.copy) {
        this.tree.ensureFitsWith(path, null, 'destination');
        return { kind: 'copy' as const, source: source.row, parentId: parentRow.id };
      }
      await this.tree.ensureFits(s, source.row, path, 'destination', source.path);
      const now = this.clock.now();
      // A file moved over a file (an editor's save: write a temp file, MOVE it over the document) makes the old content a version.
      const kept = existing && (await replaceByMove(s, existing, source.row, now, freed));
      if (existing && !kept) await s.tree.update(existing.id, { parent_id: null, trashed_at: now, trashed_parent_id: existing.parent_id, trashed_path: path });
      // Either way the destination's row leaves the tree (trashed, or replaced by the source, which carries its versions).
      if (existing) await s.events.record(ownerId, 'deleted', existing, childPath(joinPath(dstNames.slice(0, -1)), existing.name));
      const rename = name !== source.row.name ? { name, named_at: now, ...(source.row.kind === FILE ? { mime_type: mimeFor(name) } : {}) } : {};
      // The modified time stays (a move or rename is not a change of content).
      const patch = { parent_id: parentRow.id, ...rename };
      await s.tree.update(source.row.id, patch);
      await s.events.record(ownerId, 'moved', source.row, path, source.path);
      return { kind: 'done' as const, done: { entry: { row: { ...source.row, ...patch }, path }, replaced: existing !== undefined, copies: new Map<string, string>() } };
    }, { id: actorId });
    if (freed.length) await this.tree.collectGarbage(freed);
    if (plan.kind === 'done') return { ...plan.done, entry: to.view(plan.done.entry) };
    const copies = new Map<string, string>();
    const built = await this.tree.batches.buildCopy(ownerId, plan.source, name, quota, {
      shallow: options.shallow === true,
      ids: copies,
      check: (extent) => this.tree.ensureFitsWith(path, extent, 'destination'),
    });
    const revealed = await this.reveal(actorId, ownerId, built, plan.parentId, 'destination', { overwrite: options.overwrite });
    return { ...revealed, entry: to.view(revealed.entry), copies };
  }

  /** The ids of a file, or of a folder and everything under it (WebDAV counts their dead properties before a COPY). */
  async subtreeIds(actorId: string, path: string): Promise<string[]> {
    const entry = await this.resolve(actorId, path);
    if (entry.row.kind === FILE) return [entry.row.id];
    return (await this.store.tree.subtree(entry.row.id)).map((r) => r.id);
  }

  /**
   * The last step of a copy: the hidden root goes into the folder `parentId`
   * in one short transaction, after checking again what may have changed
   * while it was built (the folder, the name, the path limits). With
   * `replace`, an existing item of that name goes to the trash (WebDAV
   * Overwrite: T) or the copy is refused (412); without, a taken name is 409.
   * Any failure removes the hidden copy.
   */
  private async reveal(actorId: string, ownerId: string, built: BuiltCopy, parentId: string, field: string, replace: { overwrite: boolean } | null): Promise<{ entry: Entry; replaced: boolean }> {
    try {
      return await this.mutate(ownerId, async (s) => {
        const parent = await s.tree.findById(ownerId, parentId);
        const parentPath = parent && parent.kind === FOLDER ? await this.tree.pathOf(s, parent) : null;
        if (!parent || parentPath === null) throw conflict('The destination folder was removed during the copy');
        const path = childPath(parentPath, built.root.name);
        this.tree.ensureFitsWith(path, null, field);
        this.tree.ensureFitsWith(path, built.extent, field);
        const existing = await s.tree.findChildFolded(parent.id, built.root.name);
        const now = this.clock.now();
        if (existing) {
          if (!replace) throw conflict(`${path} already exists`);
          if (!replace.overwrite) throw new DomainError(ErrorCode.Conflict, 'The destination exists', { kind: 'precondition_failed' });
          await s.tree.update(existing.id, { parent_id: null, trashed_at: now, trashed_parent_id: existing.parent_id, trashed_path: path });
          await s.events.record(ownerId, 'deleted', existing, childPath(parentPath, existing.name));
        }
        const patch = { parent_id: parent.id, trashed_at: null, pending: 0, updated_at: now };
        if (!(await s.tree.reveal(built.root.id, patch))) throw conflict('The copy was interrupted; try again');
        // One event for the copy's root: a follower lists a created folder (docs/api.md, change feed).
        await s.events.record(ownerId, 'created', built.root, path);
        return { entry: { row: { ...built.root, ...patch }, path }, replaced: existing !== undefined };
      }, { id: actorId });
    } catch (err) {
      // A failed discard is left to the tree_pending job (the root stays hidden).
      if (!(err instanceof SimulatedCrash)) await this.tree.batches.discard(ownerId, built.root.id).catch(() => undefined);
      throw err;
    }
  }

  /** Moves each path to the trash, or deletes it for good (marked here, then deleted in batches). */
  async remove(actorId: string, paths: string[], permanent: boolean): Promise<BatchItem<null>[]> {
    return this.batch(paths, async (actorNames) => {
      const { ownerId, names } = await this.scopes.scope(actorId, actorNames, 'structure');
      // What someone deletes in a shared folder goes to the owner's trash, so the owner can restore it.
      const forGood = permanent && ownerId === actorId;
      if (names.length === 0) throw badRequest('paths: the root folder cannot be deleted');
      const marked = await this.mutate(ownerId, async (s) => {
        const entry = await this.tree.resolveIn(s, ownerId, names);
        await s.events.record(ownerId, 'deleted', entry.row, entry.path);
        if (forGood) {
          await this.tree.markForPurge(s, entry.row, entry.path);
          return entry.row.id;
        }
        await s.tree.update(entry.row.id, { parent_id: null, trashed_at: this.clock.now(), trashed_parent_id: entry.row.parent_id, trashed_path: entry.path });
        return null;
      }, { id: actorId });
      if (marked) await this.tree.batches.purgeAndCollect(ownerId, marked);
      return null;
    });
  }

  /** Runs one operation per path; each item succeeds or fails on its own. */
  private async batch<T>(paths: string[], op: (names: string[]) => Promise<T>): Promise<BatchItem<T>[]> {
    const out: BatchItem<T>[] = [];
    for (const path of paths) {
      try {
        out.push({ path, result: await op(parsePath(path, 'paths')) });
      } catch (err) {
        // Expected failures belong to the item; anything else fails the request (and is logged).
        if (!(err instanceof DomainError)) throw err;
        out.push({ path, error: err });
      }
    }
    return out;
  }
}
