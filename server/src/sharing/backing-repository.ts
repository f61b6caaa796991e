// What a reshared grant is worth now (issue 32, finding 13). A grant made by a
// recipient (created_by is not the owner) never gives more than its maker
// holds at the moment it is used: its permission is min(its own, the maker's
// best current permission from a grant that lets them reshare the item). The
// rule is applied where grants are read (the mounts of the resolver and of
// the change feed's audience), never by rewriting rows when something
// changes, so it stays right after a revoke, a lowered permission, a group
// membership change, a ban or an account deletion, whichever way it came.
//
// Only the owner can give `reshare` (a resharer's grants never carry it, and
// a resharer cannot take over someone else's grant to the same person), so a
// grant backs a reshare only when the owner made it: chains are at most
// owner -> resharer -> recipient, and this needs no recursion over grants.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The columns of a grant this needs. */
export interface GrantFacts {
  file_id: string;
  owner_id: string;
  created_by: string;
  permission: 'read' | 'write';
}

interface Backing {
  file_id: string;
  owner_id: string;
  permission: string;
  user_id: string | null;
  group_id: number | null;
}

/**
 * `rows` with every reshared grant bounded by its maker's current holding:
 * dropped when the maker holds no owner-made `reshare` grant on the item or
 * a folder above it (revoked, left the group, banned, deleted), lowered to
 * `read` when that is all they hold. Rows the owner made pass unchanged, and
 * when there are none of the others this reads nothing (the usual case).
 */
export async function boundByMakers<T extends GrantFacts>(db: Db, rows: readonly T[]): Promise<T[]> {
  const reshared = rows.filter((r) => r.created_by !== r.owner_id);
  if (!reshared.length) return [...rows];
  const makerIds = [...new Set(reshared.map((r) => r.created_by))];
  const owners = [...new Set(reshared.map((r) => r.owner_id))];
  const fileIds = [...new Set(reshared.map((r) => r.file_id))];

  // The makers as they are now: a banned or deleted one holds nothing.
  const makers = new Map((await db.selectFrom('users').select(['id', 'group_id', 'status']).where('id', 'in', makerIds).execute()).filter((m) => m.status === 'active').map((m) => [m.id, Number(m.group_id)]));
  if (!makers.size) return rows.filter((r) => r.created_by === r.owner_id);
  const groups = [...new Set(makers.values())];

  // Each reshared item and every folder above it (a maker may hold the grant on a parent).
  const chain = await sql<{ item: string; id: string }>`
    with recursive up as (
      select id as item, id, parent_id from files where id in (${sql.join(fileIds)})
      union all
      select up.item, f.id, f.parent_id from files f join up on f.id = up.parent_id
    )
    select item, id from up`.execute(db);
  const above = new Map<string, Set<string>>();
  for (const c of chain.rows) {
    const set = above.get(c.item) ?? new Set<string>();
    set.add(c.id);
    above.set(c.item, set);
  }

  // The owner-made grants that let a maker reshare, to them or to their group.
  const backing: Backing[] = await db
    .selectFrom('file_access')
    .select(['file_id', 'owner_id', 'permission', 'user_id', 'group_id'])
    .where('owner_id', 'in', owners)
    .whereRef('created_by', '=', 'owner_id')
    .where('reshare', '=', 1)
    .where((eb) => eb.or([eb('user_id', 'in', [...makers.keys()]), eb('group_id', 'in', groups)]))
    .execute();

  const out: T[] = [];
  for (const r of rows) {
    if (r.created_by === r.owner_id) {
      out.push(r);
      continue;
    }
    const group = makers.get(r.created_by);
    const items = above.get(r.file_id);
    if (group === undefined || !items) continue;
    let best: 'read' | 'write' | null = null;
    for (const b of backing) {
      if (b.owner_id !== r.owner_id || !items.has(b.file_id)) continue;
      if (b.user_id !== r.created_by && (b.group_id === null || Number(b.group_id) !== group)) continue;
      best = b.permission === 'write' ? 'write' : (best ?? 'read');
      if (best === 'write') break;
    }
    if (best === null) continue;
    out.push(best === 'read' && r.permission === 'write' ? { ...r, permission: 'read' } : r);
  }
  return out;
}
