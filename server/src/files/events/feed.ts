// The change feed's rules (api-contract §13): cursors, pages, replay from a
// cursor, and the `reset` answer for a cursor the retention job has passed.
// A cursor is a user's event number; clients treat it as opaque.
import { Type, type Static } from 'typebox';
import { badRequest } from '../../core/errors.js';
import { DateTime, StringEnum, View } from '../../core/schema.js';
import type { Clock } from '../../core/clock.js';
import type { EventRow, FeedRepository } from './repository.js';

/** Events are kept this long; a cursor older than what is left gets `reset`. */
export const RETENTION_MS = 7 * 24 * 3600_000;
export const MAX_PAGE = 500;

export const FileEventSchema = View(
  {
    id: Type.String({ description: 'the cursor just after this event (opaque, increasing)' }),
    type: StringEnum(['created', 'modified', 'moved', 'deleted', 'restored']),
    path: Type.String({ description: 'where the item is now (deleted: where it was)' }),
    old_path: Type.Optional(Type.String({ description: 'moved: where it was' })),
    file_id: Type.String(),
    is_dir: Type.Boolean({ description: 'a folder: created/restored ones may hold items, list them; deleted/moved ones take their subtree along' }),
    size: Type.Optional(Type.Integer({ description: 'files: bytes after the change' })),
    at: DateTime,
  },
  { title: 'FileEvent' },
);
export type FileEvent = Static<typeof FileEventSchema>;

export function toEvent(row: EventRow): FileEvent {
  return {
    id: encodeCursor(Number(row.seq)),
    type: row.type as FileEvent['type'],
    path: row.path,
    ...(row.old_path !== null ? { old_path: row.old_path } : {}),
    file_id: row.file_id,
    is_dir: row.is_dir === 1,
    ...(row.size !== null ? { size: Number(row.size) } : {}),
    at: new Date(Number(row.at)).toISOString(),
  };
}

export function encodeCursor(seq: number): string {
  return String(seq);
}

/** A cursor from a client: a number this server handed out; anything else is 400 naming `field`. */
export function decodeCursor(value: string, field: string): number {
  if (!/^(0|[1-9][0-9]{0,14})$/.test(value)) throw badRequest(`${field}: is not a cursor of this feed`);
  return Number(value);
}

export interface ChangesPage {
  events: FileEvent[];
  cursor: string;
  has_more: boolean;
  /** True when the cursor was older than what is kept (or unknown): list everything again, then go on from `cursor`. */
  reset: boolean;
}

export class FeedService {
  constructor(
    readonly repo: FeedRepository,
    private readonly clock: Clock,
  ) {}

  /** Where a follower starting now begins. */
  async current(userId: string): Promise<number> {
    return (await this.repo.head(userId)).seq;
  }

  /**
   * Where a reader of `cursor` goes on from: the cursor itself, or with
   * `reset` the current head, when events after the cursor were pruned or
   * the cursor is ahead of anything handed out (another site, a restored
   * backup).
   */
  async resume(userId: string, cursor: number): Promise<{ from: number; reset: boolean }> {
    const head = await this.repo.head(userId);
    if (cursor < head.pruned || cursor > head.seq) return { from: head.seq, reset: true };
    return { from: cursor, reset: false };
  }

  async page(userId: string, cursor: string | undefined, limit: number): Promise<ChangesPage> {
    if (cursor === undefined) return { events: [], cursor: encodeCursor(await this.current(userId)), has_more: false, reset: false };
    const start = await this.resume(userId, decodeCursor(cursor, 'cursor'));
    if (start.reset) return { events: [], cursor: encodeCursor(start.from), has_more: false, reset: true };
    const rows = await this.repo.after(userId, start.from, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { events: page.map(toEvent), cursor: encodeCursor(last ? Number(last.seq) : start.from), has_more: rows.length > limit, reset: false };
  }

  /** The retention job. */
  prune(): Promise<number> {
    return this.repo.prune(this.clock.now() - RETENTION_MS);
  }
}
