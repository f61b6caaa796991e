import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { AdminListBody, Email, GroupId, Nickname, Password } from '../http/schemas.js';
import { Body, Envelope, Nullable, Pagination, StringEnum, View, errors } from '../http/contract.js';
import type { AccountService } from './service.js';
import type { UserWithGroup } from './repository.js';
import { rfc3339, toUserView, UserViewSchema } from './views.js';

/** What the dashboard shows of each user beyond the user object: storage used and the last sign-in. */
export type UserActivityPort = (ids: string[]) => Promise<Map<string, { storage_used: number; last_sign_in_at: number | null }>>;

const AdminUserViewSchema = View(
  {
    ...UserViewSchema.properties,
    storage_quota: Nullable('integer', { description: "the user's own quota in bytes; null: the group's" }),
    group_storage_quota: Type.Integer({ description: 'bytes' }),
    storage_used: Type.Integer({ description: 'bytes' }),
    last_sign_in_at: Nullable('string', { format: 'date-time', description: 'RFC 3339, UTC; null: never' }),
  },
  { title: 'AdminUser' },
);
export type AdminUserView = Static<typeof AdminUserViewSchema>;

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

  r.post(
    '/api/v4/admin/user',
    {
      config: read,
      schema: {
        description: 'Lists users a page at a time, searched by e-mail or nickname and sorted, with storage used and the last sign-in.',
        body: AdminListBody(['created_at', 'email', 'nickname']),
        response: { 200: Envelope(View({ users: Type.Array(AdminUserViewSchema), pagination: Pagination }, { title: 'AdminUserPage' })) },
      },
    },
    async (request) => {
      const { keyword, order_by: orderBy, order_direction: direction } = request.body;
      const page = request.body.page ?? 1;
      const pageSize = request.body.page_size ?? 20;
      const { users, total } = await accounts.list(page, pageSize, { keyword, orderBy, direction });
      return ok({ users: await adminViews(users), pagination: { page, page_size: pageSize, total } });
    },
  );

  r.post(
    '/api/v4/admin/user/:id/reset-password',
    {
      config: { ...write, issuesCredentials: true },
      schema: {
        description: 'Sets a generated password, shown in this answer only, and ends every session of the user.',
        params: UserId,
        response: { 200: Envelope(View({ password: Type.String() }, { title: 'ResetPassword' })), ...errors(404) },
      },
    },
    async (request) => {
      await accounts.get(request.params.id);
      // Shown once to the administrator, who hands it over; every session of the user ends.
      return ok({ password: await accounts.resetPassword(request.params.id) });
    },
  );

  r.post(
    '/api/v4/admin/user/:id/sign-out',
    { config: write, schema: { description: 'Ends every session and grant of the user.', params: UserId, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await accounts.signOutEverywhere(request.params.id);
      return ok(null);
    },
  );

  r.get(
    '/api/v4/admin/user/:id',
    { config: read, schema: { params: UserId, response: { 200: Envelope(AdminUserViewSchema), ...errors(404) } } },
    async (request) => ok((await adminViews([await accounts.get(request.params.id)]))[0]),
  );

  r.put(
    '/api/v4/admin/user',
    {
      config: write,
      schema: {
        body: Body({ email: Email, password: Password, nickname: Type.Optional(Nickname), group_id: Type.Optional(GroupId) }),
        response: { 200: Envelope(UserViewSchema), ...errors(404, 409) },
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
        body: Body({
          nickname: Type.Optional(Nickname),
          group_id: Type.Optional(GroupId),
          status: Type.Optional(StringEnum(['active', 'banned'])),
          password: Type.Optional(Password),
          storage_quota: Type.Optional(Nullable('integer', { minimum: 0 })),
        }),
        response: { 200: Envelope(UserViewSchema), ...errors(404, 409) },
      },
    },
    async (request) => ok(toUserView(await accounts.adminUpdate(requireAuth(request).user.id, request.params.id, request.body))),
  );

  r.delete('/api/v4/admin/user/:id', { config: write, schema: { params: UserId, response: { 200: Envelope(Type.Null()), ...errors(404, 409) } } }, async (request) => {
    await accounts.delete(requireAuth(request).user.id, request.params.id);
    return ok(null);
  });
}
