// The trash: deleted items are detached from the tree (no parent) and keep
// where they came from. Restore puts an item back in its original folder
// (recreated if it is gone), under a numbered name when the name is taken
// (or, on request, refuses with 409 or replaces what is there).
// Trashed bytes still count towards the quota until the trash is emptied.
import { badRequest, conflict, notFound } from '../core/errors.js';
import { FOLDER, type FileStore } from './repository.js';
import { childPath, numberedName, parsePath } from './names.js';
import { mimeFor } from './mime.js';
import type { Entry, Tree } from './tree.js';
import type { FilesService } from './service.js';
import type { BatchItem } from './views.js';
import { DomainError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';

function encodeToken(trashedAt: number, id: string): string {
  return Buffer.from(JSON.stringify([trashedAt, id]), 'utf8').toString('base64url');
}

function decodeToken(token: string): { trashedAt: number; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string' && !parsed[1].includes('\u0000')) {
      return { trashedAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    /* fall through */
  }
  throw badRequest('next_page_token: is not a token from this listing');
}

/** What a restore does when the original name is taken again. */
export type RestoreConflict = 'rename' | 'fail' | 'replace';

/** Another owner's trash a person may list, restore from and purge (a team folder's, for its write members). */
export interface TrashMount {
  ownerId: string;
  /** An owner path (a trashed item's original path) as the person sees it. */
  view(ownerPath: string): string;
}

/** Which other trashes a person reaches; read on every request, like the paths (teams/resolver.ts). */
export interface TrashMounts {
  trashesOf(actorId: string): Promise<TrashMount[]>;
}

export class TrashService {
  constructor(
    private readonly tree: Tree,
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  private mounts: TrashMounts = { trashesOf: async () => [] };

  /** Set once at start-up by the team folders feature. */
  useMounts(mounts: TrashMounts): void {
    this.mounts = mounts;
  }

  /** The person's trash and the other trashes they reach, newest first, in one keyset listing. */
  /**
   * One page of the trash the person sees (their own and the team folders'
   * they may write to), with the counts of each part: `ownCount` is exactly
   * what `empty` deletes, so a warning can name it; `teamCount` is what it
   * leaves (team items are deleted for good one by one, see `empty`).
   */
  async list(ownerId: string, pageSize: number, pageToken?: string): Promise<{ entries: Entry[]; nextPageToken: string | null; ownCount: number; teamCount: number }> {
    const before = pageToken ? decodeToken(pageToken) : null;
    const others = await this.mounts.trashesOf(ownerId);
    const views = new Map(others.map((m) => [m.ownerId, m.view]));
    const [rows, ownCount, teamCount] = await Promise.all([
      this.tree.store.tree.listTrash([ownerId, ...views.keys()], before, pageSize + 1),
      this.tree.store.tree.countTrash([ownerId]),
      this.tree.store.tree.countTrash([...views.keys()]),
    ]);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      entries: page.map((row) => {
        const path = row.trashed_path ?? `/${row.name}`;
        const view = views.get(row.owner_id);
        return view ? { row: { ...row, trashed_path: view(path) }, path: view(path) } : { row, path };
      }),
      nextPageToken: rows.length > pageSize && last ? encodeToken(last.trashed_at!, last.id) : null,
      ownCount,
      teamCount,
    };
  }

  /** The trash an item id is in, as `actorId` reaches it: their own, or a mounted one. */
  private async whose(actorId: string, id: string): Promise<{ ownerId: string; view: (p: string) => string }> {
    const row = await this.tree.store.tree.findAnyById(id);
    if (row && row.owner_id !== actorId) {
      const mount = (await this.mounts.trashesOf(actorId)).find((m) => m.ownerId === row.owner_id);
      if (mount) return mount;
    }
    return { ownerId: actorId, view: (p) => p };
  }

  /**
   * Puts items back where they were. When the name is taken there:
   * `rename` (default) restores under a numbered name, `fail` answers 409 for
   * that item (so a person can be asked), `replace` moves the item in the way
   * to the trash first.
   */
  async restore(actorId: string, ids: string[], onConflict: RestoreConflict = 'rename'): Promise<BatchItem<Entry>[]> {
    return this.each(ids, async (id) => {
      const { ownerId, view } = await this.whose(actorId, id);
      const entry = await this.restoreOne(actorId, ownerId, id, onConflict);
      return { row: entry.row, path: view(entry.path) };
    });
  }

  private restoreOne(actorId: string, ownerId: string, id: string, onConflict: RestoreConflict): Promise<Entry> {
    return (
      this.files.mutate(ownerId, async (s) => {
        const row = await this.trashed(s, ownerId, id);
        const folder = row.kind === FOLDER;
        const parent = await this.originalParent(s, ownerId, row.trashed_parent_id, row.trashed_path ?? `/${row.name}`);
        if (onConflict !== 'rename') {
          const existing = await s.tree.findChild(parent.row.id, row.name);
          if (existing && onConflict === 'fail') throw conflict(`${childPath(parent.path, row.name)} already exists`);
          if (existing) {
            const now = this.clock.now();
            await s.tree.update(existing.id, { parent_id: null, trashed_at: now, trashed_parent_id: existing.parent_id, trashed_path: childPath(parent.path, existing.name) });
            await s.events.record(ownerId, 'deleted', existing, childPath(parent.path, existing.name));
          }
        }
        const name = await this.tree.freeName(s, parent.row.id, row.name, folder, (n) => numberedName(row.name, n, folder));
        await this.tree.ensureFits(s, row, childPath(parent.path, name), 'ids');
        const patch = {
          // Back in sight: a "Shared with me" label it had is held anew from now (sharing/resolver.ts).
          parent_id: parent.row.id, name, trashed_at: null, trashed_parent_id: null, trashed_path: null, named_at: this.clock.now(),
          ...(folder ? {} : { mime_type: mimeFor(name) }),
        };
        await s.tree.update(row.id, patch);
        await s.events.record(ownerId, 'restored', row, childPath(parent.path, name));
        return { row: { ...row, ...patch }, path: childPath(parent.path, name) };
      }, { id: actorId })
    );
  }

  /** Deletes trashed items for good: each is marked (invisible) in one short transaction, then deleted in batches. */
  async purge(actorId: string, ids: string[]): Promise<BatchItem<null>[]> {
    return this.each(ids, async (id) => {
      const { ownerId } = await this.whose(actorId, id);
      await this.files.mutate(ownerId, async (s) => this.tree.markForPurge(s, await this.trashed(s, ownerId, id), null), { id: actorId });
      await this.tree.batches.purgeAndCollect(ownerId, id);
      return null;
    });
  }

  /**
   * Empties the person's own trash, never a team folder's: a team's trash
   * holds what every member deleted, and one member's "Empty trash" must not
   * wipe the others' chance to restore. A write member deletes team items
   * for good by id (`purge`), having chosen them.
   */
  async empty(ownerId: string): Promise<number> {
    const ids = await this.tree.store.tree.trashIds(ownerId);
    const results = await this.purge(ownerId, ids);
    return results.filter((r) => !r.error).length;
  }

  private async trashed(s: FileStore, ownerId: string, id: string) {
    const row = await s.tree.findById(ownerId, id);
    // A pending row is being deleted (or is a copy being built): not in the trash.
    if (!row || row.trashed_at === null || row.pending !== 0) throw notFound('No such item in the trash');
    return row;
  }

  /** The folder the item was deleted from if it is still live, else its old path, recreated. */
  private async originalParent(s: FileStore, ownerId: string, parentId: string | null, originalPath: string): Promise<Entry> {
    if (parentId) {
      const parent = await s.tree.findById(ownerId, parentId);
      const path = parent && parent.kind === FOLDER ? await this.tree.pathOf(s, parent) : null;
      if (parent && path !== null) return { row: parent, path };
    }
    const names = parsePath(originalPath, 'original_path');
    return this.tree.mkdirP(s, ownerId, names.slice(0, -1), this.clock.now());
  }

  private async each<T>(ids: string[], op: (id: string) => Promise<T>): Promise<BatchItem<T>[]> {
    const out: BatchItem<T>[] = [];
    for (const id of ids) {
      try {
        out.push({ path: id, result: await op(id) });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        out.push({ path: id, error: err });
      }
    }
    return out;
  }
}
