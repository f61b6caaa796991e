// The owner's and the administrator's share routes (docs/api.md, "Shares").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TLiteral } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { NO_CONTROL } from '../http/schemas.js';
import { ADMIN_SHARE_ORDER, type AdminShareOrder } from './repository.js';
import type { ShareService } from './service.js';
import {
  ADMIN_READ, ADMIN_WRITE, DownloadLimit, ExpiresAt, ExpiresIn, PageToken, Path, READ, ShareIdParams, SharePassword, WRITE,
} from './schemas.js';

const CreateBody = Type.Object(
  {
    path: Path,
    password: Type.Optional(SharePassword),
    expires_at: Type.Optional(ExpiresAt),
    expires_in: Type.Optional(ExpiresIn),
    download_limit: Type.Optional(DownloadLimit),
  },
  { additionalProperties: false },
);

const ChangeBody = Type.Object(
  {
    password: Type.Optional(Type.Union([SharePassword, Type.Null()])),
    expires_at: Type.Optional(Type.Union([ExpiresAt, Type.Null()])),
    expires_in: Type.Optional(ExpiresIn),
    download_limit: Type.Optional(Type.Union([DownloadLimit, Type.Null()])),
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object({
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  next_page_token: Type.Optional(PageToken),
});

// The fields of the other admin lists (http/schemas.ts AdminListBody), spelled
// out so the sort field and user_id keep their types in the handler.
const AdminShareListBody = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    keyword: Type.Optional(Type.String({ maxLength: 128, pattern: NO_CONTROL })),
    order_by: Type.Optional(Type.Union(ADMIN_SHARE_ORDER.map((f) => Type.Literal(f)) as [TLiteral<AdminShareOrder>, ...TLiteral<AdminShareOrder>[]])),
    order_direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  },
  { additionalProperties: false },
);

export function shareRoutes(app: FastifyInstance, shares: ShareService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.put('/api/v4/share', { config: WRITE, schema: { body: CreateBody } }, async (request) =>
    ok(await shares.create(requireAuth(request).user.id, request.body)),
  );

  r.get('/api/v4/share', { config: READ, schema: { querystring: ListQuery } }, async (request) =>
    ok(await shares.list(requireAuth(request).user.id, request.query.page_size ?? 50, request.query.next_page_token)),
  );

  r.get('/api/v4/share/:id', { config: READ, schema: { params: ShareIdParams } }, async (request) =>
    ok(await shares.get(requireAuth(request).user.id, request.params.id)),
  );

  r.patch('/api/v4/share/:id', { config: WRITE, schema: { params: ShareIdParams, body: ChangeBody } }, async (request) =>
    ok(await shares.update(requireAuth(request).user.id, request.params.id, request.body)),
  );

  r.delete('/api/v4/share/:id', { config: WRITE, schema: { params: ShareIdParams } }, async (request) => {
    await shares.delete(requireAuth(request).user.id, request.params.id);
    return ok(null);
  });

  r.post('/api/v4/admin/share', { config: ADMIN_READ, schema: { body: AdminShareListBody } }, async (request) => {
    const b = request.body;
    return ok(await shares.adminList(b.page ?? 1, b.page_size ?? 20, { ownerId: b.user_id, keyword: b.keyword, orderBy: b.order_by, direction: b.order_direction }));
  });

  r.delete('/api/v4/admin/share/:id', { config: ADMIN_WRITE, schema: { params: ShareIdParams } }, async (request) => {
    await shares.adminDelete(request.params.id);
    return ok(null);
  });
}
