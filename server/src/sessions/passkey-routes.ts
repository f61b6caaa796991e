// Sign-in with a passkey (api-contract §11): PUT /session/authn hands out
// options for a discoverable credential and a challenge id; POST verifies the
// assertion and answers like a password sign-in ({user, token}, the device
// cookie). No second step: a passkey with user verification is two factors.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { DomainError, ErrorCode } from '../core/errors.js';
import { ok } from '../http/envelope.js';
import { Body, Envelope, View, errors } from '../http/contract.js';
import { toUserView, UserViewSchema } from '../accounts/views.js';
import type { AccountService } from '../accounts/service.js';
import type { Passkeys } from '../accounts/passkeys.js';
import { AuthenticationResponseSchema } from '../accounts/passkey-routes.js';
import { notActivated, type SessionService } from './service.js';
import type { DeviceCookies } from './device-cookies.js';
import { TokenPairSchema, type SignInRecorder } from './routes.js';

const RequestOptions = Type.Object({}, { additionalProperties: true, title: 'PublicKeyCredentialRequestOptionsJSON', description: 'for navigator.credentials.get() (WebAuthn §5.5); allowCredentials is empty' });

export function passkeySignInRoutes(app: FastifyInstance, passkeys: Passkeys, accounts: AccountService, sessions: SessionService, devices: DeviceCookies, recordSignIn?: SignInRecorder): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.put(
    '/api/v4/session/authn',
    {
      config: { auth: 'none' },
      schema: {
        description: 'Options for signing in with a passkey (discoverable credentials) and the challenge id to send back with the answer (5 minutes, once).',
        response: { 200: Envelope(View({ id: Type.String({ description: 'the challenge id' }), options: RequestOptions }, { title: 'PasskeySignInOptions' })) },
      },
    },
    async () => ok(await passkeys.authenticationOptions()),
  );

  r.post(
    '/api/v4/session/authn',
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description:
          'Signs in with navigator.credentials.get()\'s answer, like POST /session/token (device cookie included). 400/40001 when the challenge id is unknown, used or expired, ' +
          'or the response is malformed, foreign (origin, RP ID) or not signed by a registered passkey; 403 banned (40017) or not activated (40018).',
        body: Body({ id: Type.String({ minLength: 1, maxLength: 128 }), response: AuthenticationResponseSchema }),
        response: { 200: Envelope(View({ user: UserViewSchema, token: TokenPairSchema }, { title: 'PasskeySignedIn' })), ...errors(400, 403) },
      },
    },
    async (request, reply) => {
      const userId = await passkeys.authenticate(request.body.id, request.body.response as AuthenticationResponseJSON);
      const user = await accounts.findById(userId);
      if (!user) throw new DomainError(ErrorCode.ParamError, 'The passkey was not accepted: its account no longer exists');
      if (user.status === 'inactive') throw notActivated(user.email);
      if (user.status !== 'active') throw new DomainError(ErrorCode.Banned, 'This account is banned');
      const { pair } = await sessions.startFamily(user.id);
      await recordSignIn?.(pair.access_token, request);
      reply.header('set-cookie', devices.issue(user.email));
      return ok({ user: toUserView(user), token: pair });
    },
  );
}
