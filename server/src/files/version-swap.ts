// The swap of a file's content, as versions see it (issue 21): called inside
// the transaction that points a file at new content (uploads.ts place(),
// service.ts relocate(), a restore), so the old content becomes a version in
// that same commit or not at all. Kept apart from VersionService so the file
// service and the upload service can call it without depending on the routes' side.
import { newFileId, FILE, type FileRow, type FileStore } from './repository.js';
import type { Released } from './version-repository.js';

/**
 * Inside the transaction that gives `file` new content: keeps its current
 * content as a version (taking over its blob reference) or, when the group
 * keeps none, drops the reference. Returns the bytes that stop counting
 * toward `used`; blobs that lost a reference are pushed to `freed`.
 */
export async function supersede(s: FileStore, file: FileRow, now: number, freed: string[], keepAs: string = file.id): Promise<number> {
  const { maxVersions } = await s.versions.retentionOf(file.owner_id);
  if (maxVersions === 0 || file.size === 0 || !file.blob_id) {
    if (file.blob_id) {
      await s.blobs.dropRefs(new Map([[file.blob_id, 1]]));
      freed.push(file.blob_id);
    }
    return Number(file.size);
  }
  await s.versions.insert({
    id: newFileId(), owner_id: file.owner_id, file_id: keepAs, blob_id: file.blob_id, size: Number(file.size), mime_type: file.mime_type,
    created_at: file.updated_at, archived_at: now, source: file.content_source, author: file.content_author,
  });
  // Over the group's count: the oldest go now (their bytes come off `used` here).
  await release(s, file.owner_id, await s.versions.deleteByIds(await s.versions.beyond(keepAs, maxVersions)), freed);
  return 0;
}

/**
 * A WebDAV MOVE of the file `source` over the file `target`: the target's
 * versions and its current content become versions of the source, which takes
 * the target's place, and the target's row goes (its blob reference passes to
 * the version, so `used` does not change). Blobs of versions pruned meanwhile
 * go to `freed`, for the caller to collect after its commit. False when the group keeps no
 * versions or either is a folder: the caller trashes the target as before.
 */
export async function replaceByMove(s: FileStore, target: FileRow, source: FileRow, now: number, freed: string[]): Promise<boolean> {
  if (target.kind !== FILE || source.kind !== FILE) return false;
  if ((await s.versions.retentionOf(target.owner_id)).maxVersions === 0) return false;
  await s.versions.reparent(target.id, source.id);
  const released = await supersede(s, target, now, freed, source.id);
  await s.tree.deleteRows([target.id]);
  if (released) await s.usage.adjust(target.owner_id, { used: -released });
  return true;
}

/** Drops what deleted versions held: their references, and their bytes from `used`. */
export async function release(s: FileStore, ownerId: string, gone: readonly Released[], freed: string[]): Promise<void> {
  const refs = new Map<string, number>();
  let bytes = 0;
  for (const v of gone) {
    bytes += Number(v.size);
    if (v.blob_id) refs.set(v.blob_id, (refs.get(v.blob_id) ?? 0) + 1);
  }
  await s.blobs.dropRefs(refs);
  if (bytes) await s.usage.adjust(ownerId, { used: -bytes });
  freed.push(...refs.keys());
}
