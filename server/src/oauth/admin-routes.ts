// Administrators register and manage OAuth applications (api-contract §5).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { AdminListBody, NO_CONTROL } from '../http/schemas.js';
import { MAX_CLIENT_ID_LENGTH, toClientView, type ClientService } from './clients.js';
import { OAUTH_PATHS } from './paths.js';
import { MAX_REDIRECT_URI_LENGTH } from './redirect-uris.js';

const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: MAX_CLIENT_ID_LENGTH }) });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL }),
  icon: Type.String({ minLength: 1, maxLength: 2048, pattern: NO_CONTROL }),
  homepage_url: Type.Optional(Type.Union([Type.String({ maxLength: 2048, pattern: NO_CONTROL }), Type.Null()])),
  description: Type.Optional(Type.String({ maxLength: 2000, pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$' })),
  redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: MAX_REDIRECT_URI_LENGTH }), { minItems: 1, maxItems: 20 }),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 20 }),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  is_public: Type.Optional(Type.Boolean()),
  is_enabled: Type.Optional(Type.Boolean()),
  // Same bounds as the site setting (1 h to 400 days); null falls back to it.
  refresh_token_ttl: Type.Optional(Type.Union([Type.Integer({ minimum: 3600, maximum: 400 * 86400 }), Type.Null()])),
};
const CreateBody = Type.Object({ client: Type.Object(fields, { additionalProperties: false }) }, { additionalProperties: false });
const UpdateBody = Type.Object(
  {
    client: Type.Object(
      {
        ...fields,
        name: Type.Optional(fields.name),
        icon: Type.Optional(fields.icon),
        redirect_uris: Type.Optional(fields.redirect_uris),
        scopes: Type.Optional(fields.scopes),
        regenerate_secret: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
const ListBody = AdminListBody(['created_at', 'name']);

export function adminClientRoutes(app: FastifyInstance, clients: ClientService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const path = OAUTH_PATHS.adminClients;

  r.post(path, { config: read, schema: { body: ListBody } }, async (request) => {
    const page = request.body.page ?? 1;
    const pageSize = request.body.page_size ?? 20;
    const { keyword, order_by: orderBy, order_direction: direction } = request.body;
    const { clients: list, total } = await clients.list(page, pageSize, { keyword, orderBy, direction });
    return ok({ clients: list.map((c) => toClientView(c)), pagination: { page, page_size: pageSize, total } });
  });

  r.get(`${path}/:id`, { config: read, schema: { params: IdParam } }, async (request) => ok(toClientView(await clients.get(request.params.id))));

  r.put(path, { config: { ...write, issuesCredentials: true }, schema: { body: CreateBody } }, async (request) => {
    const { client, secret } = await clients.create(request.body.client);
    return ok(toClientView(client, secret));
  });

  r.put(`${path}/:id`, { config: { ...write, issuesCredentials: true }, schema: { params: IdParam, body: UpdateBody } }, async (request) => {
    const { client, secret } = await clients.update(request.params.id, request.body.client);
    return ok(toClientView(client, secret));
  });

  r.delete(`${path}/:id`, { config: write, schema: { params: IdParam } }, async (request) => {
    await clients.delete(request.params.id);
    return ok(null);
  });
}
