// The change feed's routes (api-contract §13): the Server-Sent Events stream
// and the same events as pages for clients that poll.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.js';
import { requireAuth } from '../../http/auth.js';
import { Bytes, Envelope, View } from '../../http/contract.js';
import { READ } from '../schemas.js';
import { FileEventSchema, MAX_PAGE, decodeCursor, encodeCursor, type FeedService } from './feed.js';
import type { FeedHub } from './hub.js';
import { serveStream } from './serve.js';

const Cursor = Type.String({ minLength: 1, maxLength: 32, description: 'a cursor this feed handed out (opaque)' });

const ChangesPage = View(
  {
    events: Type.Array(FileEventSchema),
    cursor: Type.String({ description: 'give it back to get what follows' }),
    has_more: Type.Boolean(),
    reset: Type.Boolean({ description: 'the cursor was older than the 7 days kept: list the tree again, then go on from `cursor`' }),
  },
  { title: 'FileChangesPage' },
);

export function feedRoutes(app: FastifyInstance, feed: FeedService, hub: FeedHub): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/file/changes',
    {
      config: READ,
      schema: {
        description: 'The change feed as pages: the events after `cursor`; without one, the current cursor and no events (start from now).',
        querystring: Type.Object({ cursor: Type.Optional(Cursor), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 100 })) }),
        response: { 200: Envelope(ChangesPage) },
      },
    },
    async (request) => ok(await feed.page(requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 100)),
  );

  r.get(
    '/api/v4/file/events',
    {
      config: READ,
      schema: {
        description:
          'The change feed as Server-Sent Events. Each event: `id:` its cursor, `data:` a FileEvent. `Last-Event-ID` (or ' +
          '`last_event_id`) replays what followed it; a cursor older than the 7 days kept gets an event `reset` (list again). ' +
          'A comment every 30 s keeps it open; it ends (event `end`) when the token expires or is revoked. One account holds at ' +
          'most 50 streams on an instance and one token 20 (configurable); beyond, 429 with Retry-After.',
        querystring: Type.Object({ last_event_id: Type.Optional(Cursor) }),
        response: { 200: Bytes('text/event-stream', 'text/event-stream') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const userId = auth.user.id;
      const header = request.headers['last-event-id'];
      const given = typeof header === 'string' && header !== '' ? { value: header, field: 'Last-Event-ID' } : request.query.last_event_id !== undefined ? { value: request.query.last_event_id, field: 'last_event_id' } : null;
      return serveStream(hub, request, reply, auth, async () => {
        const start = given ? await feed.resume(userId, decodeCursor(given.value, given.field)) : { from: await feed.current(userId), reset: false };
        return { from: start.from, preamble: start.reset ? `id: ${encodeCursor(start.from)}\nevent: reset\ndata: ${JSON.stringify({ cursor: encodeCursor(start.from) })}\n\n` : undefined };
      });
    },
  );
}
