import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { AdminListBody, Email, GroupId, Nickname, Password } from '../http/schemas.js';
import type { AccountService } from './service.js';
import type { UserWithGroup } from './repository.js';
import { rfc3339, toUserView, type UserView } from './views.js';

/** What the dashboard shows of each user beyond the user object: storage used and the last sign-in. */
export type UserActivityPort = (ids: string[]) => Promise<Map<string, { storage_used: number; last_sign_in_at: number | null }>>;

export interface AdminUserView extends UserView {
  /** The user's own quota in bytes; null = the group's. */
  storage_quota: number | null;
  group_storage_quota: number;
  storage_used: number;
  last_sign_in_at: string | null;
}

const UserId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });
const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

export function adminAccountRoutes(app: FastifyInstance, accounts: AccountService, activity: UserActivityPort): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  const adminViews = async (users: UserWithGroup[]): Promise<AdminUserView[]> => {
    const seen = await activity(users.map((u) => u.id));
    return users.map((u) => {
      const a = seen.get(u.id);
      return {
        ...toUserView(u),
        storage_quota: u.storage_quota === null ? null : Number(u.storage_quota),
        group_storage_quota: Number(u.group_quota),
        storage_used: a?.storage_used ?? 0,
        last_sign_in_at: a?.last_sign_in_at ? rfc3339(a.last_sign_in_at) : null,
      };
    });
  };

  r.post('/api/v4/admin/user', { config: read, schema: { body: AdminListBody(['created_at', 'email', 'nickname']) } }, async (request) => {
    const { keyword, order_by: orderBy, order_direction: direction } = request.body;
    const page = request.body.page ?? 1;
    const pageSize = request.body.page_size ?? 20;
    const { users, total } = await accounts.list(page, pageSize, { keyword, orderBy, direction });
    return ok({ users: await adminViews(users), pagination: { page, page_size: pageSize, total } });
  });

  r.post('/api/v4/admin/user/:id/reset-password', { config: { ...write, issuesCredentials: true }, schema: { params: UserId } }, async (request) => {
    await accounts.get(request.params.id);
    // Shown once to the administrator, who hands it over; every session of the user ends.
    return ok({ password: await accounts.resetPassword(request.params.id) });
  });

  r.post('/api/v4/admin/user/:id/sign-out', { config: write, schema: { params: UserId } }, async (request) => {
    await accounts.signOutEverywhere(request.params.id);
    return ok(null);
  });

  r.get('/api/v4/admin/user/:id', { config: read, schema: { params: UserId } }, async (request) => ok((await adminViews([await accounts.get(request.params.id)]))[0]));

  r.put(
    '/api/v4/admin/user',
    {
      config: write,
      schema: {
        body: Type.Object(
          { email: Email, password: Password, nickname: Type.Optional(Nickname), group_id: Type.Optional(GroupId) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const b = request.body;
      return ok(toUserView(await accounts.create({ email: b.email, password: b.password, nickname: b.nickname, groupId: b.group_id })));
    },
  );

  r.put(
    '/api/v4/admin/user/:id',
    {
      config: write,
      schema: {
        params: UserId,
        body: Type.Object(
          {
            nickname: Type.Optional(Nickname),
            group_id: Type.Optional(GroupId),
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('banned')])),
            password: Type.Optional(Password),
            storage_quota: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => ok(toUserView(await accounts.adminUpdate(requireAuth(request).user.id, request.params.id, request.body))),
  );

  r.delete('/api/v4/admin/user/:id', { config: write, schema: { params: UserId } }, async (request) => {
    await accounts.delete(requireAuth(request).user.id, request.params.id);
    return ok(null);
  });
}
