// The only SQL of activity (migration 043): the append, made inside the
// transaction of the change (files/events/repository.ts EventLog.note), and
// the reads of one owner's history, newest first.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ActivityEventsTable, Database, Executor } from '../db/schema.js';
import type { ActivityNote, ActivitySink } from '../files/events/audience.js';

export type ActivityRow = Selectable<ActivityEventsTable>;

/** The folder kind of a file row (files/repository.ts FOLDER). */
const FOLDER = 0;

export class ActivityRecorder implements ActivitySink {
  async append(db: Executor, note: ActivityNote): Promise<void> {
    const person = 'id' in note.actor ? note.actor.id : null;
    const name = 'anonymous' in note.actor ? note.actor.name : null;
    await db
      .insertInto('activity_events')
      .values({
        owner_id: note.ownerId, file_id: note.row.id, type: note.type, path: note.path, old_path: note.oldPath,
        is_dir: note.row.kind === FOLDER ? 1 : 0, actor_id: person, actor_name: name, at: note.at,
      })
      .execute();
  }
}

export interface ActivityQuery {
  ownerId: string;
  /** Only events about this item, or at or beneath one of these owner paths (LIKE-escaped here). */
  scope: { fileId: string; paths: string[] } | null;
  before: number | null;
  types?: readonly string[];
  actorId?: string;
  since?: number;
}

/** `path` itself or anything beneath it, as a LIKE pattern (escape: `\`). */
function beneath(path: string): string {
  const escaped = path.replace(/[\\%_]/g, (c) => `\\${c}`);
  return path === '/' ? '/%' : `${escaped}/%`;
}

export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` events of one owner's tree, newest first, older than `before`. */
  page(q: ActivityQuery, limit: number): Promise<ActivityRow[]> {
    return this.db
      .selectFrom('activity_events')
      .selectAll()
      .where('owner_id', '=', q.ownerId)
      .$if(q.before !== null, (b) => b.where('seq', '<', q.before!))
      .$if(q.types !== undefined && q.types.length > 0, (b) => b.where('type', 'in', q.types!))
      .$if(q.actorId !== undefined, (b) => b.where('actor_id', '=', q.actorId!))
      .$if(q.since !== undefined, (b) => b.where('at', '>=', q.since!))
      .$if(q.scope !== null, (b) =>
        b.where((eb) =>
          eb.or([
            eb('file_id', '=', q.scope!.fileId),
            ...q.scope!.paths.flatMap((p) => [eb('path', '=', p), eb('path', 'like', sql<string>`${beneath(p)} escape '\\'`)]),
          ]),
        ),
      )
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
  }

  /** Retention: removes the events older than `cutoff` (ms); how many went. */
  async pruneBefore(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom('activity_events').where('at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The moves in one owner's tree after `afterAt`, newest first: how a path of today was spelt before. */
  moves(ownerId: string, afterAt: number): Promise<Pick<ActivityRow, 'seq' | 'path' | 'old_path'>[]> {
    return this.db
      .selectFrom('activity_events')
      .select(['seq', 'path', 'old_path'])
      .where('owner_id', '=', ownerId)
      .where('type', '=', 'moved')
      .where('at', '>=', afterAt)
      .orderBy('seq', 'desc')
      .execute();
  }
}
