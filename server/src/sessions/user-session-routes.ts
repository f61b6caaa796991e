// GET /api/v4/user/session, DELETE /api/v4/user/session/:id, DELETE
// /api/v4/user/session (all but this one). UserSecurityInfo.* for OAuth tokens.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { DateTime, Envelope, Nullable, View, errors } from '../http/contract.js';
import type { UserSessions } from './user-sessions.js';

const READ = { auth: 'required' as const, scopes: ['UserSecurityInfo.Read'] };
const WRITE = { auth: 'required' as const, scopes: ['UserSecurityInfo.Write'] };
const SessionId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });

const SessionView = View(
  {
    id: Type.String(),
    current: Type.Boolean({ description: 'the session this request was made with' }),
    browser: Nullable('string'),
    os: Nullable('string'),
    device: Nullable('string'),
    ip: Nullable('string'),
    created_at: DateTime,
    last_used_at: DateTime,
  },
  { title: 'UserSession' },
);

export function userSessionRoutes(app: FastifyInstance, sessions: UserSessions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/user/session',
    { config: READ, schema: { description: 'The signed-in sessions of this person, newest first.', response: { 200: Envelope(View({ sessions: Type.Array(SessionView) }, { title: 'UserSessionList' })) } } },
    async (request) => {
      const auth = requireAuth(request);
      return ok({ sessions: await sessions.list(auth.user.id, auth.clientId === null ? auth.sid : null) });
    },
  );

  r.delete(
    '/api/v4/user/session/:id',
    { config: WRITE, schema: { description: 'Signs one session out.', params: SessionId, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await sessions.end(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );

  r.delete(
    '/api/v4/user/session',
    { config: WRITE, schema: { description: 'Signs out every session but this one.', response: { 200: Envelope(View({ ended: Type.Integer() }, { title: 'SessionsEnded' })) } } },
    async (request) => {
      const auth = requireAuth(request);
      return ok({ ended: await sessions.endOthers(auth.user.id, auth.clientId === null ? auth.sid : null) });
    },
  );
}
