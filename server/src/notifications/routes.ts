// The notifications API (api-contract §17): the list with the unread count,
// read marks, the live stream, the preferences, and the administrators'
// "send the digests now".
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Body, Bytes, DateTime, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { decodeCursor } from '../files/events/feed.js';
import type { FeedHub } from '../files/events/hub.js';
import { serveStream } from '../files/events/serve.js';
import { KINDS, PreferencesPatchSchema, PreferencesSchema } from './kinds.js';
import type { NotificationService } from './service.js';

const READ = { auth: 'required' as const, scopes: ['UserInfo.Read'] };
const WRITE = { auth: 'required' as const, scopes: ['UserInfo.Write'] };

export const NotificationSchema = View(
  {
    id: Type.String(),
    type: StringEnum(KINDS),
    at: DateTime,
    read: Type.Boolean(),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'what it is about (names, counts); `link` is the web app path that opens its subject' }),
  },
  { title: 'Notification' },
);

const Page = View(
  {
    items: Type.Array(NotificationSchema),
    unread: Type.Integer({ description: 'unread notifications in all' }),
    cursor: Nullable('string', { description: 'give it back as `cursor` for older ones; null: no more' }),
  },
  { title: 'NotificationPage' },
);

const Cursor = Type.String({ pattern: '^(0|[1-9][0-9]{0,14})$', description: 'a cursor this list handed out' });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

export function notificationRoutes(app: FastifyInstance, service: NotificationService, hub: FeedHub): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/notifications',
    {
      config: READ,
      schema: {
        description: 'The notifications shown in the app, newest first, and how many are unread.',
        querystring: Type.Object({ cursor: Type.Optional(Cursor), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })) }),
        response: { 200: Envelope(Page) },
      },
    },
    async (request) => ok(await service.list(requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 30)),
  );

  r.patch(
    '/api/v4/notifications/:id',
    {
      config: WRITE,
      schema: {
        description: 'Marks one notification read or unread. Another person\'s notification is 404.',
        params: IdParams,
        body: Body({ read: Type.Boolean() }),
        response: { 200: Envelope(NotificationSchema), ...errors(404) },
      },
    },
    async (request) => ok(await service.setRead(requireAuth(request).user.id, request.params.id, request.body.read)),
  );

  r.post(
    '/api/v4/notifications/read-all',
    {
      config: WRITE,
      schema: { description: 'Marks every notification read.', response: { 200: Envelope(View({ updated: Type.Integer() }, { title: 'NotificationsRead' })) } },
    },
    async (request) => ok({ updated: await service.readAll(requireAuth(request).user.id) }),
  );

  r.get(
    '/api/v4/notifications/events',
    {
      config: READ,
      schema: {
        description:
          'New notifications as Server-Sent Events (`event: notification`, `data:` a Notification, `id:` a cursor), on every instance. ' +
          '`Last-Event-ID` (or `last_event_id`) replays what followed it. A comment every 30 s keeps it open; it ends (event `end`) when the ' +
          'token expires or is revoked. The same per-account and per-token stream caps as the change feed (429 with Retry-After beyond).',
        querystring: Type.Object({ last_event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) }),
        response: { 200: Bytes('text/event-stream', 'text/event-stream') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const header = request.headers['last-event-id'];
      const given = typeof header === 'string' && header !== '' ? { value: header, field: 'Last-Event-ID' } : request.query.last_event_id !== undefined ? { value: request.query.last_event_id, field: 'last_event_id' } : null;
      return serveStream(hub, request, reply, auth, async () => {
        const head = await service.repo.head(auth.user.id);
        const from = given ? decodeCursor(given.value, given.field) : head;
        return { from: Math.min(from, head) };
      });
    },
  );

  r.get(
    '/api/v4/user/setting/notifications',
    { config: READ, schema: { description: 'Notification preferences: per kind, shown in the app and how it is mailed.', response: { 200: Envelope(PreferencesSchema) } } },
    async (request) => ok(await service.preferences(requireAuth(request).user.id)),
  );

  r.patch(
    '/api/v4/user/setting/notifications',
    {
      config: WRITE,
      schema: {
        description: 'Changes notification preferences: any kinds, any of `web` and `email`; answers all of them.',
        body: PreferencesPatchSchema,
        response: { 200: Envelope(PreferencesSchema) },
      },
    },
    async (request) => ok(await service.updatePreferences(requireAuth(request).user.id, request.body)),
  );

  r.post(
    '/api/v4/admin/notifications/digest',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Write'] },
      schema: { description: 'Sends every pending daily digest now.', response: { 200: Envelope(View({ sent: Type.Integer() }, { title: 'DigestsSent' })) } },
    },
    async () => ok({ sent: await service.sendDigests(true) }),
  );
}
