// The only SQL of the change feed (migration 021). `EventLog` writes inside
// the transaction of the change it records (files/repository.ts binds one to
// every FileStore); `FeedRepository` reads, for the streams and pages, and
// prunes.
import type { Kysely, Selectable } from 'kysely';
import type { Database, FileEventsTable } from '../../db/schema.js';
import type { ActivitySink, ActivityType, ChangeType, Changed, Delivery, FeedAudience } from './audience.js';
import type { Actor } from '../../core/actor.js';

export type { ChangeType, Changed };

/** How activity names a change the feed calls otherwise, or who made it when the request does not say (a link's uploader). */
export interface AsActivity {
  type?: ActivityType;
  actor?: Actor;
}
export type EventRow = Selectable<FileEventsTable>;

/** The folder kind of a file row (files/repository.ts FOLDER; not imported, to keep this module at the bottom). */
const FOLDER = 0;

export class EventLog {
  /** The users this executor appended for (a FileStore's transaction tells the feed after it commits). */
  readonly owners = new Set<string>();
  /** Owners whose tree others follow (the tree lock found `feed_audience` set): their changes are fanned out. */
  private readonly followed = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly audience: readonly FeedAudience[] = [],
    private readonly activity?: ActivitySink,
    /** Who makes the changes of this transaction (FileStore.transaction); null: the tree's owner. */
    private readonly actor: Actor | null = null,
  ) {}

  /** Called by the tree lock: others follow this owner's tree, so `record` asks the audience sources. */
  follow(ownerId: string): void {
    this.followed.add(ownerId);
  }

  /**
   * Appends one event to the owner's feed, and to the feed of everyone else
   * who sees the item (audience.ts), in their terms. Call it inside the
   * transaction of the change: the upsert of each user's head takes the next
   * cursor and holds the head row's lock until commit, so the next append to
   * that user's feed (any instance, any owner's change) gets a higher cursor
   * only after this one is visible. Cursor order is therefore commit order
   * per user, and a rollback leaves no gap. Heads are taken in user-id order
   * so two changes fanning out to the same people cannot deadlock.
   */
  async record(ownerId: string, type: ChangeType, row: Changed, path: string, oldPath: string | null = null, as: AsActivity = {}): Promise<void> {
    const out: Delivery[] = [{ userId: ownerId, type, row, path, oldPath }];
    if (this.followed.has(ownerId)) {
      const change = { ownerId, type, row, path, oldPath };
      for (const source of this.audience) for (const d of await source.viewers(this.db, change)) if (d.userId !== ownerId) out.push(d);
    }
    // Stable: one user's events keep their order.
    out.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    for (const d of out) await this.deliver(d);
    await this.note(ownerId, as.type ?? type, row, path, oldPath, as.actor);
  }

  /**
   * Adds one entry to the item's history (activity/), in the transaction of
   * the change: the actor is the transaction's (FileStore.transaction)
   * unless given; without one, the owner.
   */
  async note(ownerId: string, type: ActivityType, row: Changed, path: string, oldPath: string | null = null, actor?: Actor): Promise<void> {
    if (!this.activity) return;
    await this.activity.append(this.db, { ownerId, type, row, path, oldPath, actor: actor ?? this.actor ?? { id: ownerId }, at: this.now() });
  }

  /** Appends one event to one user's feed as is (no audience): e.g. a shared item appearing for its recipient. */
  async deliver(d: Delivery): Promise<void> {
    const head = await this.db
      .insertInto('file_event_heads')
      .values({ user_id: d.userId, seq: 1, pruned_seq: 0 })
      .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ seq: eb('file_event_heads.seq', '+', 1) })))
      .returning('seq')
      .executeTakeFirstOrThrow();
    const isDir = d.row.kind === FOLDER;
    await this.db
      .insertInto('file_events')
      .values({
        user_id: d.userId, seq: Number(head.seq), type: d.type, path: d.path, old_path: d.oldPath, file_id: d.row.id, is_dir: isDir ? 1 : 0,
        size: isDir || d.type === 'deleted' ? null : Number(d.row.size), at: this.now(),
      })
      .execute();
    this.owners.add(d.userId);
  }
}

export class FeedRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The owner's last cursor and the last pruned one (0, 0 before any event). */
  async head(userId: string): Promise<{ seq: number; pruned: number }> {
    const row = await this.db.selectFrom('file_event_heads').select(['seq', 'pruned_seq']).where('user_id', '=', userId).executeTakeFirst();
    return { seq: Number(row?.seq ?? 0), pruned: Number(row?.pruned_seq ?? 0) };
  }

  /** The last cursor of each of these users (absent: no event yet); one query per 500 users. */
  async heads(userIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < userIds.length; i += 500) {
      const rows = await this.db.selectFrom('file_event_heads').select(['user_id', 'seq']).where('user_id', 'in', userIds.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.user_id, Number(r.seq));
    }
    return out;
  }

  /** Up to `limit` events of the user after cursor `seq`, oldest first. */
  after(userId: string, seq: number, limit: number): Promise<EventRow[]> {
    return this.db.selectFrom('file_events').selectAll().where('user_id', '=', userId).where('seq', '>', seq).orderBy('seq').limit(limit).execute();
  }

  /**
   * Removes the events older than `before`: for each user, everything up to
   * its newest old event (so what remains is a suffix, even when instances'
   * clocks disagree a little), recording that cursor as pruned first.
   */
  async prune(before: number): Promise<number> {
    const old = await this.db
      .selectFrom('file_events')
      .select(['user_id', (eb) => eb.fn.max('seq').as('seq')])
      .where('at', '<', before)
      .groupBy('user_id')
      .execute();
    let removed = 0;
    // One user at a time and no transaction around them: a head row is locked only for its own update, so writers
    // barely wait. A crash between the two statements leaves events a cursor may no longer replay (it gets reset).
    for (const { user_id, seq } of old) {
      const upTo = Number(seq);
      await this.db.updateTable('file_event_heads').set({ pruned_seq: upTo }).where('user_id', '=', user_id).where('pruned_seq', '<', upTo).execute();
      const res = await this.db.deleteFrom('file_events').where('user_id', '=', user_id).where('seq', '<=', upTo).executeTakeFirst();
      removed += Number(res.numDeletedRows);
    }
    return removed;
  }
}
