// The change feed's audience for team folders (files/events/audience.ts): a
// change in a team principal's tree goes to every member who may see the
// folder now (the group's active people, less overrides of 'none'), with the
// path under the label the resolver gives them ("<name>", or
// "<name> (team folder)" when their own top-level item has the name). Runs
// inside the change's transaction on its connection; the team's tree is
// flagged as followed when the folder is created (repository.insert).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChangeNote, Delivery, FeedAudience } from '../files/events/audience.js';
import { foldName } from '../files/name-rules.js';
import { labelCandidates } from './resolver.js';

export class TeamAudience implements FeedAudience {
  async viewers(db: Kysely<Database>, change: ChangeNote): Promise<Delivery[]> {
    const team = await db.selectFrom('team_folders').select(['id', 'group_id', 'name', 'permission']).where('owner_id', '=', change.ownerId).executeTakeFirst();
    if (!team) return [];
    const members = await db
      .selectFrom('users as u')
      .leftJoin('team_folder_members as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.team_id', '=', team.id))
      .select(['u.id', 'm.permission as override'])
      .where('u.group_id', '=', team.group_id)
      .where('u.status', '=', 'active')
      .execute();
    const seeing = members.filter((m) => (m.override ?? team.permission) !== 'none').map((m) => m.id);
    if (!seeing.length) return [];
    // Members whose own top level holds the names a label may take (as TeamPaths.labelled asks, one query for all).
    const candidates = labelCandidates(team.name);
    const folded = new Map(candidates.map((c) => [foldName(c), c]));
    const own = await db
      .selectFrom('files as c')
      .innerJoin('files as r', 'r.id', 'c.parent_id')
      .select(['r.owner_id', 'c.name_fold'])
      .where('r.parent_id', 'is', null)
      .where('r.owner_id', 'in', seeing)
      .where('c.name_fold', 'in', [...folded.keys()])
      .execute();
    const taken = new Map<string, Set<string>>();
    for (const o of own) {
      const set = taken.get(o.owner_id) ?? new Set<string>();
      set.add(o.name_fold);
      taken.set(o.owner_id, set);
    }
    const under = (label: string, p: string) => `/${label}${p === '/' ? '' : p}`;
    return seeing.map((userId) => {
      const mine = taken.get(userId);
      const label = mine ? (candidates.find((c) => !mine.has(foldName(c))) ?? candidates[candidates.length - 1]!) : team.name;
      return { userId, type: change.type, row: change.row, path: under(label, change.path), oldPath: change.oldPath === null ? null : under(label, change.oldPath) };
    });
  }
}
