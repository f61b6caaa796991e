// The file tree's public API: resolve paths and ids, list folders, read bytes,
// zip folders, and the tree operations (create, rename, move, copy, delete).
// Other features (share links, WebDAV) build on the methods marked "public API".
// Every change runs in one transaction that first locks the user's storage
// row, so a user's tree changes are serialised and checks cannot go stale.
import { Readable } from 'node:stream';
import { DomainError, ErrorCode, badRequest, conflict, notFound } from '../core/errors.js';
import { FILE, FOLDER, isUniqueViolation, newFileId, newFileRow, type FileRow, type FileStore } from './repository.js';
import { childPath, joinPath, parseName, parsePath } from './names.js';
import { requirePortableName } from './name-rules.js';
import { mimeFor } from './mime.js';
import type { Entry, Quotas, Tree } from './tree.js';
import { ZipArchive, type ZipEntry } from './zip.js';
import type { ByteRange } from './storage/driver.js';
import type { BatchItem } from './views.js';
import type { Clock } from '../core/clock.js';

/** The kinds of a file row, for features that look at entries (shares). */
export { FILE, FOLDER };

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
  constructor(
    readonly tree: Tree,
    private readonly quotas: Quotas,
    readonly clock: Clock,
  ) {}

  private get store(): FileStore {
    return this.tree.store;
  }

  // ---- public API ----------------------------------------------------------

  /** Public API: the live item at an absolute path of the owner's tree; 404 otherwise. */
  async resolve(ownerId: string, path: string, field = 'path'): Promise<Entry> {
    return this.tree.resolveIn(this.store, ownerId, parsePath(path, field));
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
  async getById(ownerId: string, id: string): Promise<Entry> {
    const row = await this.store.tree.findById(ownerId, id);
    const path = row ? await this.tree.pathOf(this.store, row) : null;
    if (!row || path === null) throw notFound('File not found');
    return { row, path };
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
    const size = Math.min(Math.max(1, pageSize), MAX_PAGE_SIZE);
    if (sort.by !== 'name' || sort.desc) return this.listSorted(folder, size, pageToken, sort);
    const after = pageToken ? decodeToken(pageToken, folder.row.id) : null;
    const rows = await this.store.tree.listChildren(folder.row.id, after, size + 1);
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return {
      entries: page.map((row) => ({ row, path: childPath(folder.path, row.name) })),
      nextPageToken: rows.length > size && last ? encodeToken(folder.row.id, last) : null,
    };
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
      entries: page.map((row) => ({ row, path: childPath(folder.path, row.name) })),
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
  async archive(folder: Entry): Promise<ZipArchive> {
    if (folder.row.kind !== FOLDER) throw badRequest('path: is a file, not a folder');
    const out: ZipEntry[] = [];
    // The root is zipped without a top folder; any other folder under its own name.
    await this.appendToZip(out, folder.row, folder.row.parent_id === null ? '' : folder.row.name);
    return this.zipOf(out);
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
      const isRoot = item.row.parent_id === null && item.row.kind === FOLDER;
      await this.appendToZip(out, item.row, unique(isRoot ? 'files' : item.row.name, item.row.kind === FOLDER));
    }
    return this.zipOf(out);
  }

  private async zipOf(entries: ZipEntry[]): Promise<ZipArchive> {
    const blobIds = entries.flatMap((e) => (e.blobId ? [e.blobId] : []));
    const blobs = await this.store.blobs.findMany(blobIds);
    for (const e of entries) {
      const blob = e.blobId ? blobs.get(e.blobId) : undefined;
      e.size = blob ? blob.size : 0;
      e.crc32 = blob ? blob.crc32 : 0;
      e.blobId = blob && blob.size > 0 ? blob.id : null;
    }
    return new ZipArchive(entries, (blobId, range) => this.tree.storage.read(blobId, range));
  }

  /** Appends a file, or a folder and everything under it, at `name` ('' = the folder's contents at the top). */
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
    const prefix = name ? `${name}/` : '';
    if (prefix) out.push({ name: prefix, size: 0, crc32: 0, mtimeMs: row.updated_at, blobId: null });
    const visit = (parentId: string, base: string) => {
      const list = (children.get(parentId) ?? []).sort((a, b) => a.kind - b.kind || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const r of list) {
        if (r.kind === FOLDER) {
          out.push({ name: `${base}${r.name}/`, size: 0, crc32: 0, mtimeMs: r.updated_at, blobId: null });
          visit(r.id, `${base}${r.name}/`);
        } else {
          out.push({ name: base + r.name, size: 0, crc32: 0, mtimeMs: r.updated_at, blobId: r.blob_id });
        }
      }
    };
    visit(row.id, prefix);
  }

  async capacity(ownerId: string): Promise<{ used: number; total: number }> {
    await this.tree.root(ownerId);
    const usage = await this.store.usage.get(ownerId);
    return { used: usage?.used ?? 0, total: await this.quotas.quotaOf(ownerId) };
  }

  // ---- operations ------------------------------------------------------------

  /** A transaction holding the user's tree lock; unique-index races surface as 409. */
  async mutate<T>(ownerId: string, fn: (s: FileStore) => Promise<T>): Promise<T> {
    await this.tree.root(ownerId);
    try {
      return await this.store.transaction(async (s) => {
        await this.tree.lock(s, ownerId);
        return fn(s);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('An item with this name already exists (names that differ only in case are the same name)');
      throw err;
    }
  }

  /** Creates a folder or an empty file; missing parent folders are created. */
  async create(ownerId: string, path: string, type: 'file' | 'folder'): Promise<Entry> {
    const names = parsePath(path);
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
      return { row, path: joinPath(names) };
    });
  }

  async rename(ownerId: string, path: string, newName: string): Promise<Entry> {
    const names = parsePath(path);
    const name = parseName(newName, 'new_name');
    if (names.length === 0) throw badRequest('path: the root folder cannot be renamed');
    requirePortableName(name, 'new_name');
    return this.mutate(ownerId, async (s) => {
      const entry = await this.tree.resolveIn(s, ownerId, names);
      const target = joinPath([...names.slice(0, -1), name]);
      if (entry.row.name === name) return entry;
      const taken = await s.tree.findChildFolded(entry.row.parent_id!, name);
      // A change of case only is the item itself.
      if (taken && taken.id !== entry.row.id) throw conflict(taken.name === name ? `${target} already exists` : `${target}: "${taken.name}" already exists (names that differ only in case are the same name)`);
      const patch = { name, updated_at: this.clock.now(), ...(entry.row.kind === FILE ? { mime_type: mimeFor(name) } : {}) };
      await s.tree.update(entry.row.id, patch);
      return { row: { ...entry.row, ...patch }, path: target };
    });
  }

  /** Moves (metadata only) or copies (blobs shared, quota charged) each path into the folder `dst`. */
  async transfer(ownerId: string, paths: string[], dst: string, copy: boolean): Promise<BatchItem<Entry>[]> {
    const dstNames = parsePath(dst, 'dst');
    const quota = copy ? await this.quotas.quotaOf(ownerId) : 0;
    return this.batch(paths, async (names) => {
      if (names.length === 0) throw badRequest(`paths: the root folder cannot be ${copy ? 'copied' : 'moved'}`);
      return this.mutate(ownerId, async (s) => {
        const src = await this.tree.resolveIn(s, ownerId, names);
        const target = await this.tree.resolveIn(s, ownerId, dstNames);
        if (target.row.kind !== FOLDER) throw conflict('dst: is a file, not a folder');
        if (src.row.kind === FOLDER && (await this.tree.isWithin(s, target.row, src.row.id))) {
          throw badRequest(`dst: a folder cannot be ${copy ? 'copied' : 'moved'} into itself or one of its subfolders`);
        }
        if (!copy && src.row.parent_id === target.row.id) return src;
        const path = childPath(target.path, src.row.name);
        if (await s.tree.findChildFolded(target.row.id, src.row.name)) throw conflict(`${path} already exists (names that differ only in case are the same name)`);
        if (!copy) {
          const patch = { parent_id: target.row.id, updated_at: this.clock.now() };
          await s.tree.update(src.row.id, patch);
          return { row: { ...src.row, ...patch }, path };
        }
        return { row: await this.copyInto(s, ownerId, src.row, target.row.id, quota), path };
      });
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
    ownerId: string,
    src: string,
    dst: string,
    options: { copy: boolean; overwrite: boolean; shallow?: boolean },
  ): Promise<{ entry: Entry; replaced: boolean; copies: Map<string, string> }> {
    const srcNames = parsePath(src);
    const dstNames = parsePath(dst, 'destination');
    if (srcNames.length === 0 || dstNames.length === 0) throw new DomainError(ErrorCode.Forbidden, 'The root folder cannot be moved, copied or replaced');
    const quota = options.copy ? await this.quotas.quotaOf(ownerId) : 0;
    const name = dstNames[dstNames.length - 1]!;
    return this.mutate(ownerId, async (s) => {
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
      const now = this.clock.now();
      if (existing) {
        if (!options.overwrite) throw new DomainError(ErrorCode.Conflict, 'The destination exists', { kind: 'precondition_failed' });
        await s.tree.update(existing.id, { parent_id: null, trashed_at: now, trashed_parent_id: existing.parent_id, trashed_path: joinPath(dstNames) });
      }
      const path = joinPath(dstNames);
      const rename = name !== source.row.name ? { name, ...(source.row.kind === FILE ? { mime_type: mimeFor(name) } : {}) } : {};
      if (!options.copy) {
        const patch = { parent_id: parentRow.id, updated_at: now, ...rename };
        await s.tree.update(source.row.id, patch);
        return { entry: { row: { ...source.row, ...patch }, path }, replaced: existing !== undefined, copies: new Map() };
      }
      const copies = new Map<string, string>();
      const row = await this.copyInto(s, ownerId, source.row, parentRow.id, quota, { name, shallow: options.shallow === true, ids: copies });
      return { entry: { row, path }, replaced: existing !== undefined, copies };
    });
  }

  private async copyInto(
    s: FileStore,
    ownerId: string,
    source: FileRow,
    parentId: string,
    quota: number,
    options: { name?: string; shallow?: boolean; ids?: Map<string, string> } = {},
  ): Promise<FileRow> {
    const all = await s.tree.subtree(source.id);
    const rows = options.shallow ? all.filter((r) => r.depth === 0) : all;
    const now = this.clock.now();
    const ids = options.ids ?? new Map<string, string>();
    const refs = new Map<string, number>();
    let bytes = 0;
    const copies = rows.map((r) => {
      const id = newFileId();
      ids.set(r.id, id);
      if (r.kind === FILE) bytes += r.size;
      if (r.blob_id) refs.set(r.blob_id, (refs.get(r.blob_id) ?? 0) + 1);
      const { depth: _depth, ...row } = r;
      const top = r.depth === 0 && options.name !== undefined && options.name !== r.name ? { name: options.name, ...(r.kind === FILE ? { mime_type: mimeFor(options.name) } : {}) } : {};
      return { ...row, id, parent_id: r.depth === 0 ? parentId : ids.get(r.parent_id!)!, created_at: now, updated_at: now, ...top };
    });
    if (!(await s.usage.charge(ownerId, bytes, quota))) throw new DomainError(ErrorCode.TooLarge, 'Not enough storage space for this copy');
    await s.tree.insert(copies);
    if (!(await s.blobs.addRefs(refs))) throw conflict('A file changed during the copy; try again');
    return copies[0]!;
  }

  /** Moves each path to the trash, or deletes it for good. */
  async remove(ownerId: string, paths: string[], permanent: boolean): Promise<BatchItem<null>[]> {
    const freed: string[] = [];
    const results = await this.batch(paths, async (names) => {
      if (names.length === 0) throw badRequest('paths: the root folder cannot be deleted');
      await this.mutate(ownerId, async (s) => {
        const entry = await this.tree.resolveIn(s, ownerId, names);
        if (permanent) {
          freed.push(...(await this.tree.purge(s, ownerId, entry.row)));
          return;
        }
        await s.tree.update(entry.row.id, { parent_id: null, trashed_at: this.clock.now(), trashed_parent_id: entry.row.parent_id, trashed_path: entry.path });
      });
      return null;
    });
    if (freed.length) await this.tree.collectGarbage(freed);
    return results;
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
