// Who did what to which item (api-contract §17 "Activity"). Histories are
// written in the owner's terms (repository.ts); what a reader sees is decided
// here, when they read, from what they can read now: their own tree, and the
// tops of other trees they reach (items shared with them, team folders;
// FilesService.reachable). An event of another tree is shown only when it
// happened at or beneath such a top as the top was spelt then (its path is
// followed back through the owner's moves), and its paths are rewritten onto
// the path the reader addresses the top by: no owner path outside what was
// shared ever leaves, and a revoked grant takes the history with it.
import type { Actor } from '../core/actor.js';
import type { FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import { VIRTUAL_FOLDER_ID } from '../files/scopes.js';
import type { ActivityRepository, ActivityRow } from './repository.js';

export const ACTIVITY_TYPES = ['created', 'modified', 'moved', 'deleted', 'restored', 'version_restored', 'shared', 'unshared', 'link_downloaded', 'link_uploaded'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export interface ActivityItem {
  seq: number;
  at: number;
  actor: Actor;
  type: ActivityType;
  path: string;
  oldPath: string | null;
  fileId: string;
  isDir: boolean;
}

export interface ActivityFilter {
  types?: ActivityType[];
  actorId?: string;
  since?: number;
}

/** How one path of today was spelt at any earlier event: the owner's moves that carried it, newest first. */
class PathHistory {
  private constructor(
    readonly now: string,
    /** seq of a move, and the path before it. */
    private readonly changes: { seq: number; before: string }[],
  ) {}

  static async of(repo: ActivityRepository, ownerId: string, now: string, since: number): Promise<PathHistory> {
    const changes: { seq: number; before: string }[] = [];
    let cur = now;
    for (const m of await repo.moves(ownerId, since)) {
      if (m.old_path === null || !isAtOrBeneath(cur, m.path)) continue;
      cur = m.old_path + cur.slice(m.path === '/' ? 0 : m.path.length);
      changes.push({ seq: Number(m.seq), before: cur });
    }
    return new PathHistory(now, changes);
  }

  /** The path just after event `seq` (every later move undone). */
  at(seq: number): string {
    let p = this.now;
    for (const c of this.changes) {
      if (c.seq <= seq) break;
      p = c.before;
    }
    return p;
  }

  /** Every spelling it has had (for the query's prefilter). */
  all(): string[] {
    return [...new Set([this.now, ...this.changes.map((c) => c.before)])];
  }
}

function isAtOrBeneath(path: string, top: string): boolean {
  return top === '/' || path === top || path.startsWith(`${top}/`);
}

/** `path` (at or beneath `top`) rewritten onto `readerTop`. */
function rebase(path: string, top: string, readerTop: string): string {
  const rest = top === '/' ? (path === '/' ? '' : path) : path.slice(top.length);
  if (readerTop === '/') return rest === '' ? '/' : rest;
  return readerTop + rest;
}

/** One tree as a reader sees it: all of it (their own) or from a top down. */
interface View {
  ownerId: string;
  /** null: the reader's own tree, seen whole. */
  top: { row: Entry['row']; history: PathHistory; readerPath: string } | null;
}

/** How far one page looks: a page ends at `limit` items, and no view is read past this many rows for one page. */
const SCAN_BATCH = 200;

export class ActivityService {
  constructor(
    private readonly repo: ActivityRepository,
    private readonly files: FilesService,
  ) {}

  /** Retention (site setting activity_retention_days): removes events older than `days` days before `now`; 0 keeps everything. */
  prune(days: number, now: number): Promise<number> {
    if (!(days > 0)) return Promise.resolve(0);
    return this.repo.pruneBefore(now - days * 86_400_000);
  }

  /**
   * The reader's activity, newest first: everything they can read, or the
   * history of the item at `path` (as they address it; a folder's includes
   * what happened beneath it). A path they cannot read is 404, as for
   * /file/info. `before`: the cursor of the previous page.
   */
  async list(readerId: string, path: string | undefined, filter: ActivityFilter, before: number | null, limit: number): Promise<{ items: ActivityItem[]; more: boolean }> {
    const views = await this.views(readerId);
    let target: { fileId: string; ownerId: string; history: PathHistory } | { readerPrefix: string } | null = null;
    if (path !== undefined) {
      const entry = await this.files.resolve(readerId, path);
      if (entry.row.id === VIRTUAL_FOLDER_ID) target = { readerPrefix: entry.path };
      else {
        const ownerPath = await this.files.ownerPathOf(entry.row);
        const ownerId = entry.row.owner_id;
        target = ownerPath === null ? { readerPrefix: entry.path } : { fileId: entry.row.id, ownerId, history: await PathHistory.of(this.repo, ownerId, ownerPath, Number(entry.row.created_at)) };
      }
    }
    const chosen = target !== null && 'ownerId' in target ? views.filter((v) => v.ownerId === (target as { ownerId: string }).ownerId) : views;
    const collected: ActivityItem[] = [];
    let more = false;
    for (const view of chosen) {
      const r = await this.fromView(view, target, filter, before, limit);
      collected.push(...r.items);
      more ||= r.more;
    }
    // Several views of one tree (two grants, one inside the other) see some events twice: keep the first.
    const seen = new Set<number>();
    const items = collected.sort((a, b) => b.seq - a.seq).filter((i) => (seen.has(i.seq) ? false : (seen.add(i.seq), true)));
    return { items: items.slice(0, limit), more: more || items.length > limit };
  }

  private async views(readerId: string): Promise<View[]> {
    const out: View[] = [{ ownerId: readerId, top: null }];
    for (const root of await this.files.reachable(readerId)) {
      if (root.row.owner_id === readerId) continue;
      const ownerPath = await this.files.ownerPathOf(root.row);
      if (ownerPath === null) continue;
      out.push({ ownerId: root.row.owner_id, top: { row: root.row, history: await PathHistory.of(this.repo, root.row.owner_id, ownerPath, Number(root.row.created_at)), readerPath: root.path } });
    }
    return out;
  }

  /** Up to `limit` + 1 events of one view (and the target), in the reader's terms. */
  private async fromView(
    view: View,
    target: { fileId: string; ownerId: string; history: PathHistory } | { readerPrefix: string } | null,
    filter: ActivityFilter,
    before: number | null,
    limit: number,
  ): Promise<{ items: ActivityItem[]; more: boolean }> {
    const byId = target !== null && 'fileId' in target ? target : null;
    const scope = byId ? { fileId: byId.fileId, paths: byId.history.all() } : view.top ? { fileId: view.top.row.id, paths: view.top.history.all() } : null;
    const items: ActivityItem[] = [];
    let cursor = before;
    for (;;) {
      const rows = await this.repo.page({ ownerId: view.ownerId, scope, before: cursor, types: filter.types, actorId: filter.actorId, since: filter.since }, SCAN_BATCH);
      for (const row of rows) {
        const item = this.translate(view, row);
        if (!item) continue;
        if (byId && row.file_id !== byId.fileId && !isAtOrBeneath(row.path, byId.history.at(Number(row.seq)))) continue;
        if (target !== null && 'readerPrefix' in target && !isAtOrBeneath(item.path, target.readerPrefix)) continue;
        items.push(item);
        if (items.length > limit) return { items, more: true };
      }
      if (rows.length < SCAN_BATCH) return { items, more: false };
      cursor = Number(rows[rows.length - 1]!.seq);
    }
  }

  /** One event in the reader's terms, or null when it happened outside what the view shows. */
  private translate(view: View, row: ActivityRow): ActivityItem | null {
    const seq = Number(row.seq);
    let path = row.path;
    let oldPath = row.old_path;
    if (view.top) {
      const top = view.top;
      const isTop = row.file_id === top.row.id;
      const topThen = top.history.at(seq);
      if (!isTop && !isAtOrBeneath(row.path, topThen)) return null;
      path = isTop ? top.readerPath : rebase(row.path, topThen, top.readerPath);
      if (oldPath !== null) {
        // Where it was before this event, only if that was inside too (a move into a shared folder names no outside path).
        const topBefore = top.history.at(seq - 1);
        oldPath = isTop ? null : isAtOrBeneath(oldPath, topBefore) ? rebase(oldPath, topBefore, top.readerPath) : null;
      }
    }
    const actor: Actor = row.actor_id !== null ? { id: row.actor_id } : { anonymous: true, name: row.actor_name };
    return { seq, at: Number(row.at), actor, type: row.type as ActivityType, path, oldPath: oldPath === path ? null : oldPath, fileId: row.file_id, isDir: row.is_dir === 1 };
  }
}
