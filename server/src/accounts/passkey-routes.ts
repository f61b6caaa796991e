// Passkeys of the signed-in person (api-contract §11): registration options,
// registration, the list, rename and removal. First-party only: an
// application's token cannot add a way to sign in to the account, and
// adding one also needs the password or a TOTP code (an access token alone,
// stolen from a browser, must not plant a lasting way in).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { AnyPassword, Otp } from '../http/schemas.js';
import { badRequest } from '../core/errors.js';
import type { TwoFactorService } from './two-factor.js';
import { Body, DateTime, Envelope, Nullable, View, errors } from '../http/contract.js';
import type { AccountService } from './service.js';
import { toPasskeyView, type Passkeys } from './passkeys.js';

const B64 = Type.String({ maxLength: 16384, pattern: '^[A-Za-z0-9_-]*={0,2}$' });
const Extensions = Type.Object({}, { additionalProperties: true });

/** The JSON form of a PublicKeyCredential from navigator.credentials.create() (WebAuthn §5.1, toJSON()). */
export const RegistrationResponseSchema = Type.Object(
  {
    id: B64,
    rawId: B64,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64,
        attestationObject: B64,
        authenticatorData: Type.Optional(B64),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(B64),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    clientExtensionResults: Extensions,
  },
  { additionalProperties: false, title: 'RegistrationResponse' },
);

/** The JSON form of a PublicKeyCredential from navigator.credentials.get(). */
export const AuthenticationResponseSchema = Type.Object(
  {
    id: B64,
    rawId: B64,
    type: Type.Literal('public-key'),
    response: Type.Object(
      { clientDataJSON: B64, authenticatorData: B64, signature: B64, userHandle: Type.Optional(B64) },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    clientExtensionResults: Extensions,
  },
  { additionalProperties: false, title: 'AuthenticationResponse' },
);

export const PasskeyName = Type.String({ minLength: 1, maxLength: 64, description: 'what the person calls the passkey' });
const PasskeySchema = View({ id: Type.String(), name: Type.String(), created_at: DateTime, last_used_at: Nullable('string', { format: 'date-time', description: 'RFC 3339, UTC; null until first used' }) }, { title: 'Passkey' });
const CreationOptions = Type.Object({}, { additionalProperties: true, title: 'PublicKeyCredentialCreationOptionsJSON', description: 'for navigator.credentials.create() (WebAuthn §5.4)' });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const FIRST_PARTY = { auth: 'required' as const, firstPartyOnly: true };

export function passkeyRoutes(app: FastifyInstance, passkeys: Passkeys, accounts: AccountService, twoFactor: TwoFactorService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.put(
    '/api/v4/user/authn',
    {
      config: FIRST_PARTY,
      schema: {
        description: 'Registration options for a new passkey (discoverable, user verification required). The challenge is valid 5 minutes, once, for the caller only.',
        response: { 200: Envelope(CreationOptions) },
      },
    },
    async (request) => ok(await passkeys.registrationOptions(await accounts.get(requireAuth(request).user.id))),
  );

  r.post(
    '/api/v4/user/authn',
    {
      config: FIRST_PARTY,
      schema: {
        description:
          'Stores a passkey from navigator.credentials.create()\'s answer to the options of PUT; a notice is mailed. The person confirms it is them with ' +
          '`password` (400/40069 when wrong) or, with two-step on, a current TOTP code `otp` (401/40022); both are throttled (429). ' +
          '400/40001 when neither is given, or the response is malformed or its challenge, origin or RP ID is wrong.',
        body: Body({ response: RegistrationResponseSchema, name: PasskeyName, password: Type.Optional(AnyPassword), otp: Type.Optional(Otp) }),
        response: { 200: Envelope(PasskeySchema), ...errors(400, 401, 429) },
      },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      const { password, otp } = request.body;
      // Checked before the challenge is spent, so a mistyped password costs no new ceremony.
      if (password !== undefined) await accounts.checkPassword(userId, password);
      else if (otp !== undefined) await twoFactor.checkCode(userId, otp);
      else throw badRequest('password: confirm it is you with your password (or otp: a code from your authenticator app)');
      return ok(toPasskeyView(await passkeys.register(userId, request.body.response as RegistrationResponseJSON, request.body.name)));
    },
  );

  r.get(
    '/api/v4/user/authn',
    { config: FIRST_PARTY, schema: { description: 'The caller\'s passkeys, oldest first.', response: { 200: Envelope(Type.Array(PasskeySchema)) } } },
    async (request) => ok((await passkeys.list(requireAuth(request).user.id)).map(toPasskeyView)),
  );

  r.patch(
    '/api/v4/user/authn/:id',
    {
      config: FIRST_PARTY,
      schema: { description: 'Renames one of the caller\'s passkeys (404 for anyone else\'s).', params: IdParams, body: Body({ name: PasskeyName }), response: { 200: Envelope(PasskeySchema), ...errors(400, 404) } },
    },
    async (request) => ok(toPasskeyView(await passkeys.rename(requireAuth(request).user.id, request.params.id, request.body.name))),
  );

  r.delete(
    '/api/v4/user/authn/:id',
    {
      config: FIRST_PARTY,
      schema: { description: 'Removes one of the caller\'s passkeys (404 for anyone else\'s).', params: IdParams, response: { 200: Envelope(Type.Null()), ...errors(404) } },
    },
    async (request) => {
      await passkeys.remove(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );
}
