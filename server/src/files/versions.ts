// File versions (api-contract §13). When a file's content is replaced (an
// upload onto an existing path, a WebDAV MOVE over a file, a restore), the
// previous content becomes a version: a row that takes over the file's
// reference on the blob, so nothing is copied and the bytes stay charged to
// the owner (`used` counts versions; capacity shows them apart). The swap
// happens in the transaction that points the file at its new content, so a
// crash leaves either the old content current and no version, or the new
// content current and the old one a version.
//
// Retention is the owner's group's: `max_versions` per file (0 = none,
// pruned on each write and by the job) and `version_days` after a version
// was replaced (the job). Empty contents are not kept (an editor's or
// Finder's "create empty, then write" would fill the list with nothing).
import { forbidden, notFound } from '../core/errors.js';
import { FILE } from './repository.js';
import type { VersionRow } from './version-repository.js';
import { release, supersede } from './version-swap.js';
import type { Entry, Tree } from './tree.js';
import type { FilesService } from './service.js';
import type { Sendable } from './send.js';
import { DEFAULT_MIME } from './mime.js';
import type { Clock } from '../core/clock.js';

export interface VersionList {
  file: Entry;
  versions: VersionRow[];
}

export class VersionService {
  constructor(
    private readonly tree: Tree,
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  /** The versions of the file at `path`, newest first (the current content is the file itself). */
  async list(ownerId: string, path: string): Promise<VersionList> {
    const file = await this.files.resolve(ownerId, path);
    if (file.row.kind !== FILE) return { file, versions: [] };
    return { file, versions: await this.tree.store.versions.listOfFile(file.row.id) };
  }

  /** Turns stored sources ('web', 'app:<client id>', 'webdav:<account id>') into kinds and current names. */
  async sourceNames(ownerId: string, sources: readonly (string | null)[]): Promise<(source: string | null) => { kind: 'web' | 'app' | 'webdav' | 'unknown'; name: string | null }> {
    const ids = (kind: string) => [...new Set(sources.filter((s): s is string => !!s && s.startsWith(`${kind}:`)).map((s) => s.slice(kind.length + 1)))];
    const names = await this.tree.store.versions.sourceNames(ownerId, ids('app'), ids('webdav'));
    return (source) => {
      if (source === 'web') return { kind: 'web', name: null };
      const kind = source ? source.slice(0, source.indexOf(':')) : '';
      if (kind === 'app' || kind === 'webdav') return { kind, name: names.get(source!) ?? null };
      return { kind: 'unknown', name: null };
    };
  }

  /** The people who wrote these contents (files.content_author, file_versions.author): nickname, else e-mail; null when unknown. */
  async authorNames(ids: readonly (string | null)[]): Promise<(id: string | null) => string | null> {
    const names = await this.tree.store.versions.authorNames([...new Set(ids.filter((id): id is string => !!id))]);
    return (id) => (id ? (names.get(id) ?? null) : null);
  }

  /**
   * A version of a live file the person can reach: one of their own, or of a
   * file inside an item shared with them (getById answers it under their
   * path); 404 otherwise, like any id that is not theirs to see.
   */
  async get(actorId: string, id: string): Promise<{ version: VersionRow; file: Entry }> {
    const version = await this.tree.store.versions.findAny(id);
    if (!version) throw notFound('Version not found');
    const file = await this.files.getById(actorId, version.file_id).catch(() => null);
    if (!file || file.row.owner_id !== version.owner_id) throw notFound('Version not found');
    return { version, file };
  }

  /** A version's bytes, for files/send.ts (ranges, validators). */
  sendable(version: VersionRow, file: Entry): Sendable {
    return {
      size: Number(version.size),
      // Blobs are immutable, so the blob id is a strong validator here too.
      etag: `"${version.blob_id ?? 'empty'}"`,
      lastModified: Number(version.created_at),
      mime: version.mime_type ?? DEFAULT_MIME,
      filename: file.row.name,
      open: async (range) => this.tree.storage.read(version.blob_id!, range),
    };
  }

  /**
   * Makes a version the current content again; the current content becomes a
   * version (nothing is lost). In the tree the path lies in (a recipient's
   * "/Shared with me/…" path names the owner's file; it needs a write grant).
   */
  async restore(actorId: string, path: string, versionId: string): Promise<Entry> {
    const sc = await this.files.scope(actorId, path, 'write');
    if (sc.virtual) throw notFound('Version not found');
    const ownerId = sc.ownerId;
    const freed: string[] = [];
    const entry = await this.files.mutate(ownerId, async (s) => {
      const file = await this.tree.resolveIn(s, ownerId, sc.names);
      if (file.row.kind !== FILE) throw notFound('Version not found');
      const version = await s.versions.find(ownerId, versionId);
      if (!version || version.file_id !== file.row.id) throw notFound('Version not found');
      const now = this.clock.now();
      // The version's row goes first: its blob reference passes to the file, and pruning below cannot pick it.
      await s.versions.deleteByIds([version.id]);
      const released = await supersede(s, file.row, now, freed);
      if (released) await s.usage.adjust(ownerId, { used: -released });
      const content = { blob_id: version.blob_id, size: Number(version.size), mime_type: file.row.mime_type, updated_at: now, content_source: version.source, content_author: version.author };
      await s.tree.update(file.row.id, content);
      await s.events.record(ownerId, 'modified', { ...file.row, ...content }, file.path, null, { type: 'version_restored' });
      return { row: { ...file.row, ...content }, path: file.path };
    }, { id: actorId });
    if (freed.length) await this.tree.collectGarbage(freed);
    return sc.view(entry);
  }

  /**
   * Deletes a version for good; its bytes stop counting at once. Only the
   * file's owner may: a version is often the only copy of what a write
   * recipient overwrote, and nothing a recipient does may destroy the owner's
   * content for good (their file deletions go to the owner's trash too).
   */
  async remove(actorId: string, id: string): Promise<void> {
    const { file } = await this.get(actorId, id);
    if (file.row.owner_id !== actorId) throw forbidden('Only the owner of a file can delete its versions');
    const ownerId = file.row.owner_id;
    const freed: string[] = [];
    await this.files.mutate(ownerId, async (s) => {
      const gone = await s.versions.deleteByIds([id]);
      if (gone.length === 0) throw notFound('Version not found');
      await release(s, ownerId, gone, freed);
    }, { id: actorId });
    if (freed.length) await this.tree.collectGarbage(freed);
  }

  /** The jobs runner's pruning: versions past their group's age, and files over their group's count. Returns how many went. */
  async prune(limit = 500): Promise<number> {
    let removed = 0;
    // Batch after batch until a round finds less than a full batch (bounded, so a failing delete cannot spin).
    for (let round = 0; round < 100; round++) {
      const { count, full } = await this.pruneBatch(limit);
      removed += count;
      if (!full) break;
    }
    return removed;
  }

  private async pruneBatch(limit: number): Promise<{ count: number; full: boolean }> {
    const store = this.tree.store;
    const now = this.clock.now();
    let count = 0;
    const freed: string[] = [];
    const byOwner = new Map<string, string[]>();
    const expired = await store.versions.expired(now, limit);
    for (const v of expired) byOwner.set(v.owner_id, [...(byOwner.get(v.owner_id) ?? []), v.id]);
    const overfull = await store.versions.overfull(limit);
    for (const f of overfull) {
      const ids = await store.versions.beyond(f.file_id, f.max_versions);
      byOwner.set(f.owner_id, [...(byOwner.get(f.owner_id) ?? []), ...ids]);
    }
    for (const [ownerId, ids] of byOwner) {
      // Under the owner's tree lock, like every other change of `used`.
      count += await this.files.mutate(ownerId, async (s) => {
        const gone = await s.versions.deleteByIds([...new Set(ids)]);
        await release(s, ownerId, gone, freed);
        return gone.length;
      }, null);
    }
    if (freed.length) await this.tree.collectGarbage(freed);
    return { count, full: count > 0 && (expired.length === limit || overfull.length === limit) };
  }
}
