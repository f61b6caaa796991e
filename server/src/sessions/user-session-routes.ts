// GET /api/v4/user/session, DELETE /api/v4/user/session/:id, DELETE
// /api/v4/user/session (all but this one). UserSecurityInfo.* for OAuth tokens.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import type { UserSessions } from './user-sessions.js';

const READ = { auth: 'required' as const, scopes: ['UserSecurityInfo.Read'] };
const WRITE = { auth: 'required' as const, scopes: ['UserSecurityInfo.Write'] };
const SessionId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const SessionView = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  browser: Nullable(Type.String()),
  os: Nullable(Type.String()),
  device: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.String({ format: 'date-time' }),
});
const envelope = <T extends Parameters<typeof Type.Object>[0]>(data: T) => Type.Object({ code: Type.Integer(), data: Type.Object(data), msg: Type.String() });
const NullEnvelope = Type.Object({ code: Type.Integer(), data: Type.Null(), msg: Type.String() });

export function userSessionRoutes(app: FastifyInstance, sessions: UserSessions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/v4/user/session', { config: READ, schema: { response: { 200: envelope({ sessions: Type.Array(SessionView) }) } } }, async (request) => {
    const auth = requireAuth(request);
    return ok({ sessions: await sessions.list(auth.user.id, auth.clientId === null ? auth.sid : null) });
  });

  r.delete('/api/v4/user/session/:id', { config: WRITE, schema: { params: SessionId, response: { 200: NullEnvelope } } }, async (request) => {
    await sessions.end(requireAuth(request).user.id, request.params.id);
    return ok(null);
  });

  r.delete('/api/v4/user/session', { config: WRITE, schema: { response: { 200: envelope({ ended: Type.Integer() }) } } }, async (request) => {
    const auth = requireAuth(request);
    return ok({ ended: await sessions.endOthers(auth.user.id, auth.clientId === null ? auth.sid : null) });
  });
}
