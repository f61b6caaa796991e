import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { secondFactorRequired } from '../core/errors.js';
import { ok } from '../http/envelope.js';
import { AnyPassword, Jwt } from '../http/schemas.js';
import { Body, DateTime, Envelope, View, errors } from '../http/contract.js';
import { toUserView, UserViewSchema } from '../accounts/views.js';
import type { SessionService } from './service.js';
import type { DeviceCookies } from './device-cookies.js';

const RefreshBody = Body({ refresh_token: Jwt });
/** An e-mail address; or, when an LDAP directory is enabled, a directory login such as a uid (api-contract §15). */
const SignInLogin = Type.String({ minLength: 1, maxLength: 254, pattern: '^[^\\u0000]*$', description: 'an e-mail address, or a directory login (uid) when an LDAP provider is enabled' });
/** A TOTP code, or a recovery code (xxxxx-xxxxx, the dash optional). */
const SecondFactorCode = Type.String({ pattern: '^([0-9]{6}|[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5})$', description: 'a 6-digit TOTP code or a recovery code' });

export const TokenPairSchema = View(
  { access_token: Type.String(), refresh_token: Type.String(), access_expires: DateTime, refresh_expires: DateTime },
  { title: 'TokenPair' },
);
const SignedIn = View({ user: UserViewSchema, token: TokenPairSchema }, { title: 'SignedIn' });
/** Envelope code 203 (HTTP 200): the account has a second factor; data is the id to send to /session/token/2fa. */
const SecondFactorRequired = View(
  { code: Type.Literal(203), data: Type.String({ description: 'second-factor session id' }), msg: Type.String() },
  { title: 'SecondFactorRequired', description: 'Envelope code 203: send the TOTP code with this session id to /session/token/2fa' },
);

/** Told of each password sign-in (the browser and address, for the sessions list). */
export type SignInRecorder = (accessToken: string, request: FastifyRequest) => Promise<void>;

export function sessionRoutes(app: FastifyInstance, sessions: SessionService, devices: DeviceCookies, recordSignIn?: SignInRecorder): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/session/token',
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description:
          'Password sign-in (method B). Failed attempts are throttled per account and per address; a browser that signed in to the account before ' +
          '(its device cookie) is not locked out by guesses from elsewhere. A full sign-in sets that device cookie (Set-Cookie). ' +
          'When an LDAP provider is enabled, `email` may also be a directory login and the password is checked by the directory (a Cirrus password is tried first).',
        body: Body({ email: SignInLogin, password: AnyPassword }),
        response: { 200: Type.Union([Envelope(SignedIn), SecondFactorRequired], { description: 'Signed in (code 0), or a second factor is needed (code 203)' }), ...errors(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const device = devices.deviceOf(request.body.email, request.headers.cookie);
      const result = await sessions.signIn(request.body.email, request.body.password, request.ip, device);
      request.signInMethod = result.method;
      // The browser is trusted only once the whole sign-in (second factor included) succeeded.
      // Envelope code 203 with HTTP 200, through the one envelope mapping (serialized by the 200 schema's second branch).
      if (result.kind === 'second_factor') throw secondFactorRequired(result.sessionId);
      await recordSignIn?.(result.token.access_token, request);
      reply.header('set-cookie', devices.issue(result.user.email));
      return ok({ user: toUserView(result.user), token: result.token });
    },
  );

  r.post(
    '/api/v4/session/token/2fa',
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description:
          'The second step of a sign-in with TOTP: the 6-digit code, or one of the recovery codes (each works once). Sets the device cookie (Set-Cookie) like a one-step sign-in.',
        body: Body({ otp: SecondFactorCode, session_id: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: Envelope(SignedIn), ...errors(401, 429) },
      },
    },
    async (request, reply) => {
      const { user, token } = await sessions.completeSecondFactor(request.body.session_id, request.body.otp, request.ip);
      await recordSignIn?.(token.access_token, request);
      reply.header('set-cookie', devices.issue(user.email));
      return ok({ user: toUserView(user), token });
    },
  );

  r.post(
    '/api/v4/session/token/refresh',
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description: 'Rotates a refresh token (first-party or OAuth). Reusing a replaced token revokes its whole session family.',
        body: RefreshBody,
        response: { 200: Envelope(TokenPairSchema), ...errors(401) },
      },
    },
    async (request) => ok((await sessions.refresh(request.body.refresh_token)).pair),
  );

  r.delete(
    '/api/v4/session/token',
    {
      config: { auth: 'none' },
      schema: { description: 'Sign-out: revokes the whole session family (idempotent).', body: RefreshBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await sessions.signOut(request.body.refresh_token);
      return ok(null);
    },
  );
}
