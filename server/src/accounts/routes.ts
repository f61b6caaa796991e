import type { FastifyReply, FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth, requireScopes } from '../http/auth.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import { AnyPassword, Email, Nickname, Otp, Password } from '../http/schemas.js';
import { Body, DateTime, Envelope, Nullable, View, errors } from '../http/contract.js';
import type { AccountService } from './service.js';
import type { TwoFactorService } from './two-factor.js';
import { meAnswerJson, toUserView, UserViewSchema } from './views.js';
import type { EmailFlows } from './email-flows.js';

/** An application the user has granted access to (what the OAuth feature's grant lister returns). */
const OAuthGrantSchema = View(
  {
    client_id: Type.String(),
    name: Type.String(),
    icon: Type.String(),
    homepage_url: Nullable('string'),
    scopes: Type.Array(Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'OAuthGrant' },
);
export type OAuthGrantView = Static<typeof OAuthGrantSchema>;

const UserSettingsSchema = View(
  {
    ...UserViewSchema.properties,
    oauth_grants: Type.Array(OAuthGrantSchema),
    recovery_codes_left: Type.Integer({ description: 'unused two-step recovery codes (0 when two-step verification is off)' }),
  },
  { title: 'UserSettings' },
);

/** Lists what a user has granted to applications; provided by the OAuth feature. */
export type GrantLister = (userId: string) => Promise<OAuthGrantView[]>;

const UserResponse = { 200: Envelope(UserViewSchema) };
const RecoveryCodesResponse = {
  200: Envelope(View({ recovery_codes: Type.Array(Type.String(), { description: 'shown once; each works once in place of a TOTP code' }) }, { title: 'RecoveryCodes' })),
};
const NullResponse = { 200: Envelope(Type.Null()) };

export function accountRoutes(
  app: FastifyInstance,
  accounts: AccountService,
  twoFactor: TwoFactorService,
  grants: { list: GrantLister },
  notices: { passwordChanged(userId: string): Promise<void> },
  flows: EmailFlows,
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/user',
    {
      config: { auth: 'none' },
      schema: {
        description:
          'Sign-up (403/40019 while the site has sign-up closed, the default). With signup_email_verification the account is inactive until the mailed activation link is used (POST /user/activate).',
        body: Body({ email: Email, password: Password, nickname: Type.Optional(Nickname) }),
        response: { ...UserResponse, ...errors(403, 409) },
      },
    },
    async (request) => ok(toUserView(await flows.signUp(request.body, request.headers['accept-language']))),
  );

  r.get('/api/v4/user/me', { config: { auth: 'required', scopes: ['UserInfo.Read'] }, schema: { response: UserResponse } }, (request, reply) => {
    // The guard's cached row (bounded staleness, see user-cache.ts) keeps this route query-free,
    // and its answer is serialized once per cached row (views.ts meAnswerJson).
    // A string is sent as it is (the typed reply expects the object the string already holds).
    void (reply as FastifyReply).type('application/json; charset=utf-8').send(meAnswerJson(requireAuth(request).user.row));
  });

  r.get(
    '/api/v4/user/setting',
    { config: { auth: 'required', scopes: ['UserSecurityInfo.Read'] }, schema: { response: { 200: Envelope(UserSettingsSchema) } } },
    async (request) => {
      const user = await accounts.get(requireAuth(request).user.id);
      return ok({
        ...toUserView(user),
        two_fa_enabled: user.totp_secret !== null,
        oauth_grants: await grants.list(user.id),
        recovery_codes_left: user.totp_secret === null ? 0 : await twoFactor.recovery.remaining(user.id),
      });
    },
  );

  r.patch(
    '/api/v4/user/setting',
    {
      // The answer is the profile and the route changes it: UserInfo.Write for any token, even with an empty body.
      config: { auth: 'required', scopes: ['UserInfo.Write'] },
      schema: {
        description:
          'Changes the nickname and/or the password (the password also needs UserSecurityInfo.Write; revokes the other sessions and voids every mailed link). ' +
          'A wrong current_password is 400/40069, throttled per account (429 after 6 wrong).',
        body: Body({ nickname: Type.Optional(Nickname), current_password: Type.Optional(AnyPassword), new_password: Type.Optional(Password) }),
        // 403/40089: a password change also needs UserSecurityInfo.Write, checked in the handler.
        response: { ...UserResponse, ...errors(403, 429) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const body = request.body;
      const changesPassword = body.new_password !== undefined || body.current_password !== undefined;
      // Every check runs before the first change, so a rejected request changes nothing.
      if (changesPassword) {
        requireScopes(request, 'UserSecurityInfo.Write');
        if (body.new_password === undefined || body.current_password === undefined) {
          throw new DomainError(ErrorCode.ParamError, 'current_password and new_password go together');
        }
      }
      if (body.nickname !== undefined) {
        if (!body.nickname.trim()) throw new DomainError(ErrorCode.ParamError, 'nickname: must not be empty');
      }
      if (changesPassword) {
        await accounts.changePassword(auth.user.id, body.current_password!, body.new_password!, auth.sid);
        await notices.passwordChanged(auth.user.id);
      }
      if (body.nickname !== undefined) await accounts.updateProfile(auth.user.id, { nickname: body.nickname });
      return ok(toUserView(await accounts.get(auth.user.id)));
    },
  );

  r.post(
    '/api/v4/user/setting/2fa',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'], issuesCredentials: true },
      schema: {
        description: 'Starts TOTP enrolment: a pending secret, on once confirmed with PUT.',
        response: { 200: Envelope(View({ secret: Type.String(), otpauth_url: Type.String() }, { title: 'TotpEnrolment' })), ...errors(409) },
      },
    },
    async (request) => ok(await twoFactor.begin(requireAuth(request).user.id)),
  );

  r.put(
    '/api/v4/user/setting/2fa',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'], issuesCredentials: true },
      schema: { description: 'Turns TOTP on; answers the ten recovery codes, shown only here.', body: Body({ otp: Otp }), response: { ...RecoveryCodesResponse, ...errors(401) } },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      const codes = await twoFactor.confirm(userId, request.body.otp);
      // GET /user/me answers from the user cache; it must show the change at once.
      accounts.cache.invalidate(userId);
      return ok({ recovery_codes: codes });
    },
  );

  r.post(
    '/api/v4/user/setting/2fa/recovery-codes',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'], issuesCredentials: true },
      schema: {
        description: 'A new set of ten recovery codes (the old set stops working). The current password is required (400/40069 when wrong; 429 after 6 wrong).',
        body: Body({ password: AnyPassword }),
        response: { ...RecoveryCodesResponse, ...errors(400, 429) },
      },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      await accounts.checkPassword(userId, request.body.password);
      return ok({ recovery_codes: await twoFactor.renewRecoveryCodes(userId) });
    },
  );

  r.delete(
    '/api/v4/user/setting/2fa',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] },
      schema: {
        description: 'Turns two-step verification off with a current TOTP code (401/40022 when wrong). Wrong codes share the sign-in second step\'s per-account count: 429 after 6.',
        body: Body({ otp: Otp }),
        response: { ...NullResponse, ...errors(401, 429) },
      },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      await twoFactor.disable(userId, request.body.otp);
      accounts.cache.invalidate(userId);
      return ok(null);
    },
  );
}
