// The change feed's audience for shared items (files/events/audience.ts): a
// change in a tree whose owner has granted access goes to every recipient
// who sees the changed item, under "/Shared with me/<label>/…". Runs inside
// the change's transaction, only for owners flagged as followed, so a person's
// own files with no grants cost nothing here.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChangeNote, Delivery, FeedAudience } from '../files/events/audience.js';
import type { Changed } from '../files/events/audience.js';
import { labelMounts, SHARED_WITH_ME } from './resolver.js';
import type { MountRow } from './repository.js';
import { boundByMakers } from './backing-repository.js';

interface ChainRow {
  item: string;
  id: string;
  parent_id: string | null;
  name: string;
  kind: number;
  size: number;
  trashed_at: number | null;
  pending: number;
  depth: number;
}

/** A granted item and where it is (now, and before this change). */
interface Item {
  row: Changed;
  now: string | null;
  before: string | null;
}

const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The grants reaching each of `userIds` (all owners), with what labels need;
 * oldest first, as the resolver orders them; reshared grants bounded by their
 * makers as the resolver bounds them.
 */
export async function mountRowsFor(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, (MountRow & { trashed_at: number | null; pending: number })[]>> {
  const out = new Map<string, (MountRow & { trashed_at: number | null; pending: number })[]>();
  if (!userIds.length) return out;
  const people = await db.selectFrom('users').select(['id', 'group_id']).where('id', 'in', userIds).execute();
  const groups = [...new Set(people.map((p) => Number(p.group_id)))];
  const all = await db
    .selectFrom('file_access as a')
    .innerJoin('files as f', 'f.id', 'a.file_id')
    .innerJoin('users as o', 'o.id', 'a.owner_id')
    .select([
      'a.id', 'a.file_id', 'a.owner_id', 'a.permission', 'a.reshare', 'a.created_by', 'a.created_at', 'a.user_id', 'a.group_id',
      'f.name', 'f.kind', 'f.trashed_at', 'f.pending', 'f.named_at', 'o.nickname as owner_nickname', 'o.email as owner_email', 'o.nickname_at',
    ])
    .where((eb) => eb.or([eb('a.user_id', 'in', userIds), ...(groups.length ? [eb('a.group_id', 'in', groups)] : [])]))
    .where('o.status', '=', 'active')
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
  const rows = await boundByMakers(db, all);
  for (const p of people) {
    out.set(
      p.id,
      rows
        .filter((r) => (r.user_id === p.id || (r.group_id !== null && Number(r.group_id) === Number(p.group_id))) && r.owner_id !== p.id)
        .map((r) => ({ ...r, reshare: Number(r.reshare), created_at: Number(r.created_at), kind: Number(r.kind), pending: Number(r.pending), named_at: Number(r.named_at), nickname_at: Number(r.nickname_at) }) as MountRow & { trashed_at: number | null; pending: number }),
    );
  }
  return out;
}

/** The label of `fileId` among a person's mounts as the resolver computes them (live items), or null. */
export function labelOf(rows: readonly (MountRow & { trashed_at: number | null; pending: number })[], fileId: string, opts: { include?: string; rename?: string } = {}): string | null {
  const visible = rows
    .filter((r) => (r.trashed_at === null && r.pending === 0) || r.file_id === opts.include)
    .map((r) => (opts.rename !== undefined && r.file_id === fileId ? { ...r, name: opts.rename } : r));
  return labelMounts(visible).find((m) => m.file_id === fileId)?.label ?? null;
}

export const mountPath = (label: string) => `/${SHARED_WITH_ME}/${label}`;

export class SharingAudience implements FeedAudience {
  async viewers(db: Kysely<Database>, change: ChangeNote): Promise<Delivery[]> {
    const grants = await db.selectFrom('file_access').select(['file_id', 'user_id', 'group_id']).where('owner_id', '=', change.ownerId).execute();
    if (!grants.length) return [];
    const items = await this.items(db, [...new Set(grants.map((g) => g.file_id))], change);

    // What each granted item's recipients see of this change, in mount-relative terms.
    type Seen = { type: Delivery['type']; row: Changed; rel: string; oldRel: string | null; rename?: string };
    const seen = new Map<string, Seen>();
    const P = change.path;
    for (const [fileId, it] of items) {
      if (change.type === 'moved') {
        const O = change.oldPath!;
        if (it.now === null) continue;
        if (within(it.now, P)) {
          // The item itself or a folder above it moved: the mount stays, unless the item's own name changed (its label).
          if (it.now === P && baseName(P) !== baseName(O)) seen.set(fileId, { type: 'moved', row: it.row, rel: '', oldRel: '', rename: baseName(O) });
          continue;
        }
        const inNew = within(P, it.now);
        const inOld = within(O, it.now);
        if (inNew && inOld) seen.set(fileId, { type: 'moved', row: change.row, rel: P.slice(it.now.length), oldRel: O.slice(it.now.length) });
        else if (inNew) seen.set(fileId, { type: 'created', row: change.row, rel: P.slice(it.now.length), oldRel: null });
        else if (inOld) seen.set(fileId, { type: 'deleted', row: change.row, rel: O.slice(it.now.length), oldRel: null });
        continue;
      }
      const at = change.type === 'deleted' ? it.before : it.now;
      if (at === null) continue;
      if (within(P, at)) seen.set(fileId, { type: change.type, row: change.row, rel: P.slice(at.length), oldRel: null });
      // A folder above the item went to the trash or came back: so did the mount.
      else if ((change.type === 'deleted' || change.type === 'restored') && within(at, P)) seen.set(fileId, { type: change.type, row: it.row, rel: '', oldRel: null });
    }
    if (!seen.size) return [];

    // Recipients of the affected items: people, and the active members of groups.
    const recipients = new Set<string>();
    const groupIds = new Set<number>();
    for (const g of grants) {
      if (!seen.has(g.file_id)) continue;
      if (g.user_id !== null) recipients.add(g.user_id);
      if (g.group_id !== null) groupIds.add(Number(g.group_id));
    }
    if (groupIds.size) {
      const members = await db.selectFrom('users').select('id').where('group_id', 'in', [...groupIds]).where('status', '=', 'active').execute();
      for (const m of members) recipients.add(m.id);
    }
    recipients.delete(change.ownerId);
    const mounts = await mountRowsFor(db, [...recipients]);

    const out: Delivery[] = [];
    const include = change.type === 'deleted' ? change.row.id : undefined;
    for (const [userId, rows] of mounts) {
      const mine = new Set(rows.map((r) => r.file_id));
      for (const [fileId, s] of seen) {
        if (!mine.has(fileId)) continue;
        const label = labelOf(rows, fileId, { include });
        if (label === null) continue;
        if (s.rename !== undefined) {
          const old = labelOf(rows, fileId, { rename: s.rename });
          if (old !== null && old !== label) out.push({ userId, type: 'moved', row: s.row, path: mountPath(label), oldPath: mountPath(old) });
          continue;
        }
        out.push({ userId, type: s.type, row: s.row, path: mountPath(label) + s.rel, oldPath: s.oldRel === null ? null : mountPath(label) + s.oldRel });
      }
    }
    return out;
  }

  /**
   * Each granted item's path now (null: not live) and before this change
   * (differs for a deletion: an item inside the folder just trashed or purged
   * is detached under it, so its path is the event's path plus the rest).
   * One recursive query for all the items.
   */
  private async items(db: Kysely<Database>, ids: readonly string[], change: ChangeNote): Promise<Map<string, Item>> {
    const res = await sql<ChainRow>`
      with recursive chain as (
        select id as item, id, parent_id, name, kind, size, trashed_at, pending, 0 as depth from files where id in (${sql.join(ids)})
        union all
        select chain.item, f.id, f.parent_id, f.name, f.kind, f.size, f.trashed_at, f.pending, chain.depth + 1 from files f join chain on f.id = chain.parent_id
      )
      select * from chain order by item, depth`.execute(db);
    const chains = new Map<string, ChainRow[]>();
    for (const r of res.rows) {
      const list = chains.get(r.item) ?? [];
      list.push(r);
      chains.set(r.item, list);
    }
    const out = new Map<string, Item>();
    for (const [id, chain] of chains) {
      const self = chain[0]!;
      const top = chain[chain.length - 1]!;
      const below = chain.slice(0, -1).reverse().map((r) => r.name);
      const row = { id, kind: Number(self.kind), size: Number(self.size) };
      const live = chain.length > 1 && top.parent_id === null && top.trashed_at === null && Number(top.pending) === 0;
      const now = live ? `/${below.join('/')}` : null;
      let before = now;
      if (change.type === 'deleted' && top.id === change.row.id) before = change.path + (below.length ? `/${below.join('/')}` : '');
      out.set(id, { row, now, before });
    }
    return out;
  }
}
