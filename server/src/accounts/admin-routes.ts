import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Email, GroupId, Nickname, Password } from '../http/schemas.js';
import type { AccountService } from './service.js';
import { toUserView } from './views.js';

const UserId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });
const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

export function adminAccountRoutes(app: FastifyInstance, accounts: AccountService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/admin/user',
    {
      config: read,
      schema: {
        body: Type.Object(
          { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const page = request.body.page ?? 1;
      const pageSize = request.body.page_size ?? 20;
      const { users, total } = await accounts.list(page, pageSize);
      return ok({ users: users.map(toUserView), pagination: { page, page_size: pageSize, total } });
    },
  );

  r.get('/api/v4/admin/user/:id', { config: read, schema: { params: UserId } }, async (request) => ok(toUserView(await accounts.get(request.params.id))));

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

  r.get('/api/v4/admin/group', { config: read }, async () => {
    const groups = await accounts.repo.listGroups();
    return ok(groups.map((g) => ({ id: g.id, name: g.name, is_admin: g.is_admin === 1, storage_quota: g.storage_quota })));
  });
}
