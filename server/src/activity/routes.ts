// GET /api/v4/activity (api-contract §17): the reader's activity, or one
// item's history (`path`, as the reader addresses it; a folder's includes
// what happened beneath it), newest first; `cursor` pages to older events.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { DateTime, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { badRequest } from '../core/errors.js';
import { Path, READ } from '../files/schemas.js';
import { ACTIVITY_TYPES, type ActivityItem, type ActivityService, type ActivityType } from './service.js';

/** The display names of people (accounts' user cache). */
export interface PeoplePort {
  nicknames(ids: readonly string[]): Promise<Map<string, string>>;
}

const ActivityView = View(
  {
    id: Type.String({ description: 'this event; as `cursor`, the page after it' }),
    at: DateTime,
    actor: Type.Union([
      View({ id: Type.String(), nickname: Type.String({ description: 'empty when the account no longer exists' }) }, { title: 'ActivityPerson' }),
      View({ anonymous: Type.Literal(true), name: Type.Optional(Type.String({ description: 'the name an upload-request uploader gave' })) }, { title: 'ActivityAnonymous' }),
    ]),
    type: StringEnum([...ACTIVITY_TYPES]),
    path: Type.String({ description: 'the item as the reader addressed it then (deleted: where it was)' }),
    old_path: Type.Optional(Type.String({ description: 'moved: where it was, when the reader could see that place' })),
    file_id: Type.String(),
  },
  { title: 'ActivityEvent' },
);

function toView(i: ActivityItem, names: Map<string, string>) {
  const actor = 'id' in i.actor ? { id: i.actor.id, nickname: names.get(i.actor.id) ?? '' } : { anonymous: true as const, ...(i.actor.name ? { name: i.actor.name } : {}) };
  return { id: String(i.seq), at: new Date(i.at).toISOString(), actor, type: i.type, path: i.path, ...(i.oldPath !== null ? { old_path: i.oldPath } : {}), file_id: i.fileId };
}

const TYPE_LIST = `^(${ACTIVITY_TYPES.join('|')})(,(${ACTIVITY_TYPES.join('|')}))*$`;

export function activityRoutes(app: FastifyInstance, activity: ActivityService, people: PeoplePort): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/activity',
    {
      config: READ,
      schema: {
        description:
          'What happened, newest first: everything the reader can read now, or the history of the item at `path` (followed by id through renames; a folder\'s includes what happened beneath it). A path the reader cannot read is 404, as for /file/info. Filters combine.',
        querystring: Type.Object({
          path: Type.Optional(Path),
          cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'the `cursor` of the previous page' })),
          type: Type.Optional(Type.String({ pattern: TYPE_LIST, maxLength: 200, description: 'one type or several, comma-separated' })),
          actor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'the UID of the person who acted' })),
          since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events at or after' })),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        }),
        response: {
          200: Envelope(View({ items: Type.Array(ActivityView), cursor: Nullable('string', { description: 'the next (older) page; null at the end' }) }, { title: 'ActivityPage' })),
          ...errors(400, 404),
        },
      },
    },
    async (request) => {
      const reader = requireAuth(request).user.id;
      const q = request.query;
      const size = q.page_size ?? 50;
      let since: number | undefined;
      if (q.since !== undefined) {
        since = Date.parse(q.since);
        if (!Number.isFinite(since)) throw badRequest('since: not an RFC 3339 time');
      }
      const types = q.type === undefined ? undefined : (q.type.split(',') as ActivityType[]);
      const before = q.cursor === undefined ? null : Number(q.cursor);
      const page = await activity.list(reader, q.path, { types, actorId: q.actor, since }, before, size);
      const names = await people.nicknames([...new Set(page.items.flatMap((i) => ('id' in i.actor ? [i.actor.id] : [])))]);
      return ok({ items: page.items.map((i) => toView(i, names)), cursor: page.more && page.items.length ? String(page.items.at(-1)!.seq) : null });
    },
  );
}
