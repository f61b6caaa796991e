import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth, requireScopes } from '../http/auth.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import { AnyPassword, Email, Nickname, Otp, Password } from '../http/schemas.js';
import type { AccountService } from './service.js';
import type { TwoFactorService } from './two-factor.js';
import { toUserView } from './views.js';

/** Lists what a user has granted to applications; provided by the OAuth feature. */
export type GrantLister = (userId: string) => Promise<unknown[]>;

export function accountRoutes(app: FastifyInstance, accounts: AccountService, twoFactor: TwoFactorService, grants: { list: GrantLister }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/user',
    {
      config: { auth: 'none' },
      schema: { body: Type.Object({ email: Email, password: Password, nickname: Type.Optional(Nickname) }, { additionalProperties: false }) },
    },
    async (request) => ok(toUserView(await accounts.signUp(request.body))),
  );

  r.get('/api/v4/user/me', { config: { auth: 'required', scopes: ['UserInfo.Read'] } }, async (request) => {
    // The guard's cached row (bounded staleness, see user-cache.ts) keeps this route query-free.
    return ok(toUserView(requireAuth(request).user.row));
  });

  r.get('/api/v4/user/setting', { config: { auth: 'required', scopes: ['UserSecurityInfo.Read'] } }, async (request) => {
    const user = await accounts.get(requireAuth(request).user.id);
    return ok({ ...toUserView(user), two_fa_enabled: user.totp_secret !== null, oauth_grants: await grants.list(user.id) });
  });

  r.patch(
    '/api/v4/user/setting',
    {
      config: { auth: 'required' },
      schema: {
        body: Type.Object(
          { nickname: Type.Optional(Nickname), current_password: Type.Optional(AnyPassword), new_password: Type.Optional(Password) },
          { additionalProperties: false },
        ),
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
        requireScopes(request, 'UserInfo.Write');
        if (!body.nickname.trim()) throw new DomainError(ErrorCode.ParamError, 'nickname: must not be empty');
      }
      if (changesPassword) await accounts.changePassword(auth.user.id, body.current_password!, body.new_password!, auth.sid);
      if (body.nickname !== undefined) await accounts.updateProfile(auth.user.id, { nickname: body.nickname });
      return ok(toUserView(await accounts.get(auth.user.id)));
    },
  );

  r.post('/api/v4/user/setting/2fa', { config: { auth: 'required', scopes: ['UserSecurityInfo.Write'], issuesCredentials: true } }, async (request) => {
    return ok(await twoFactor.begin(requireAuth(request).user.id));
  });

  r.put(
    '/api/v4/user/setting/2fa',
    { config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] }, schema: { body: Type.Object({ otp: Otp }, { additionalProperties: false }) } },
    async (request) => {
      const userId = requireAuth(request).user.id;
      await twoFactor.confirm(userId, request.body.otp);
      // GET /user/me answers from the user cache; it must show the change at once.
      accounts.cache.invalidate(userId);
      return ok(null);
    },
  );

  r.delete(
    '/api/v4/user/setting/2fa',
    { config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] }, schema: { body: Type.Object({ otp: Otp }, { additionalProperties: false }) } },
    async (request) => {
      const userId = requireAuth(request).user.id;
      await twoFactor.disable(userId, request.body.otp);
      accounts.cache.invalidate(userId);
      return ok(null);
    },
  );
}
