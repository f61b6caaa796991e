import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { secondFactorRequired } from '../core/errors.js';
import { ok } from '../http/envelope.js';
import { AnyPassword, Email, Jwt, Otp } from '../http/schemas.js';
import { toUserView } from '../accounts/views.js';
import type { SessionService } from './service.js';
import type { DeviceCookies } from './device-cookies.js';

const RefreshBody = Type.Object({ refresh_token: Jwt }, { additionalProperties: false });

/** Told of each password sign-in (the browser and address, for the sessions list). */
export type SignInRecorder = (accessToken: string, request: FastifyRequest) => Promise<void>;

export function sessionRoutes(app: FastifyInstance, sessions: SessionService, devices: DeviceCookies, recordSignIn?: SignInRecorder): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/session/token',
    { config: { auth: 'none', issuesCredentials: true }, schema: { body: Type.Object({ email: Email, password: AnyPassword }, { additionalProperties: false }) } },
    async (request, reply) => {
      const device = devices.deviceOf(request.body.email, request.headers.cookie);
      const result = await sessions.signIn(request.body.email, request.body.password, request.ip, device);
      // The browser is trusted only once the whole sign-in (second factor included) succeeded.
      if (result.kind === 'second_factor') throw secondFactorRequired(result.sessionId);
      await recordSignIn?.(result.token.access_token, request);
      reply.header('set-cookie', devices.issue(result.user.email));
      return ok({ user: toUserView(result.user), token: result.token });
    },
  );

  r.post(
    '/api/v4/session/token/2fa',
    { config: { auth: 'none', issuesCredentials: true }, schema: { body: Type.Object({ otp: Otp, session_id: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }) } },
    async (request, reply) => {
      const { user, token } = await sessions.completeSecondFactor(request.body.session_id, request.body.otp, request.ip);
      await recordSignIn?.(token.access_token, request);
      reply.header('set-cookie', devices.issue(user.email));
      return ok({ user: toUserView(user), token });
    },
  );

  r.post('/api/v4/session/token/refresh', { config: { auth: 'none', issuesCredentials: true }, schema: { body: RefreshBody } }, async (request) => {
    return ok((await sessions.refresh(request.body.refresh_token)).pair);
  });

  r.delete('/api/v4/session/token', { config: { auth: 'none' }, schema: { body: RefreshBody } }, async (request) => {
    await sessions.signOut(request.body.refresh_token);
    return ok(null);
  });
}
