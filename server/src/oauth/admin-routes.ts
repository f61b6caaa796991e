// Administrators register and manage OAuth applications (api-contract §5).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { AdminListBody, NO_CONTROL } from '../http/schemas.js';
import { Body, DateTime, Envelope, Nullable, Pagination, StringEnum, View, errors } from '../http/contract.js';
import { MAX_CLIENT_ID_LENGTH, toClientView, type ClientService } from './clients.js';
import { OAUTH_PATHS } from './paths.js';
import { MAX_REDIRECT_URI_LENGTH } from './redirect-uris.js';
import { GRANT_TYPES } from './grant-types.js';

const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: MAX_CLIENT_ID_LENGTH }) });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL }),
  icon: Type.String({ minLength: 1, maxLength: 2048, pattern: NO_CONTROL }),
  homepage_url: Type.Optional(Type.Union([Type.String({ maxLength: 2048, pattern: NO_CONTROL }), Type.Null()])),
  description: Type.Optional(Type.String({ maxLength: 2000, pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$' })),
  // At least one when grant_types includes authorization_code (the service checks: it depends on the other field).
  redirect_uris: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_REDIRECT_URI_LENGTH }), {
      maxItems: 20,
      description: 'exact redirect URIs; 1–20 when grant_types includes authorization_code, may be empty or absent for a device-grant-only app (RFC 8628)',
    }),
  ),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 20 }),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  is_public: Type.Optional(Type.Boolean()),
  is_enabled: Type.Optional(Type.Boolean()),
  // Same bounds as the site setting (1 h to 400 days); null falls back to it.
  refresh_token_ttl: Type.Optional(Type.Union([Type.Integer({ minimum: 3600, maximum: 400 * 86400 }), Type.Null()])),
  grant_types: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: GRANT_TYPES.length,
      description: `the grants the token endpoint accepts from this app (default: authorization_code, refresh_token): ${GRANT_TYPES.join(', ')}`,
    }),
  ),
  post_logout_redirect_uris: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_REDIRECT_URI_LENGTH }), { maxItems: 20, description: 'where an RP-initiated logout may send the browser (exact match); default none' }),
  ),
  require_par: Type.Optional(Type.Boolean({ description: 'authorization requests must be pushed first (RFC 9126); default false' })),
  require_dpop: Type.Optional(Type.Boolean({ description: 'every token request must carry a DPoP proof, so every token is sender-constrained (RFC 9449); default false' })),
};
const CreateBody = Body({ client: Body(fields) });
const UpdateBody = Body({
  client: Body({
    ...fields,
    name: Type.Optional(fields.name),
    icon: Type.Optional(fields.icon),
    scopes: Type.Optional(fields.scopes),
    regenerate_secret: Type.Optional(Type.Boolean()),
  }),
});

const ClientViewSchema = View(
  {
    id: Type.String({ description: 'the client_id' }),
    name: Type.String(),
    icon: Type.String(),
    homepage_url: Nullable('string'),
    description: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    scopes: Type.Array(Type.String()),
    is_public: Type.Boolean(),
    is_enabled: Type.Boolean(),
    refresh_token_ttl: Nullable('integer', { description: 'seconds; null: the site setting' }),
    grant_types: Type.Array(StringEnum(GRANT_TYPES)),
    require_par: Type.Boolean(),
    require_dpop: Type.Boolean(),
    post_logout_redirect_uris: Type.Array(Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
    secret: Type.Optional(Type.String({ description: 'only in the answer that created or regenerated it' })),
  },
  { title: 'OAuthClient' },
);
const ListBody = AdminListBody(['created_at', 'name']);
const ClientPage = View({ clients: Type.Array(ClientViewSchema), pagination: Pagination }, { title: 'OAuthClientPage' });

export function adminClientRoutes(app: FastifyInstance, clients: ClientService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const path = OAUTH_PATHS.adminClients;

  r.post(path, { config: read, schema: { description: 'Lists the registered apps.', body: ListBody, response: { 200: Envelope(ClientPage) } } }, async (request) => {
    const page = request.body.page ?? 1;
    const pageSize = request.body.page_size ?? 20;
    const { keyword, order_by: orderBy, order_direction: direction } = request.body;
    const { clients: list, total } = await clients.list(page, pageSize, { keyword, orderBy, direction });
    return ok({ clients: list.map((c) => toClientView(c)), pagination: { page, page_size: pageSize, total } });
  });

  r.get(`${path}/:id`, { config: read, schema: { params: IdParam, response: { 200: Envelope(ClientViewSchema), ...errors(404) } } }, async (request) => ok(toClientView(await clients.get(request.params.id))));

  r.put(path, { config: { ...write, issuesCredentials: true }, schema: { description: 'Registers an app; the answer carries its secret, once.', body: CreateBody, response: { 200: Envelope(ClientViewSchema) } } }, async (request) => {
    const { client, secret } = await clients.create(request.body.client);
    return ok(toClientView(client, secret));
  });

  r.put(`${path}/:id`, { config: { ...write, issuesCredentials: true }, schema: { params: IdParam, body: UpdateBody, response: { 200: Envelope(ClientViewSchema), ...errors(404) } } }, async (request) => {
    const { client, secret } = await clients.update(request.params.id, request.body.client);
    return ok(toClientView(client, secret));
  });

  r.delete(`${path}/:id`, { config: write, schema: { params: IdParam, response: { 200: Envelope(Type.Null()), ...errors(404) } } }, async (request) => {
    await clients.delete(request.params.id);
    return ok(null);
  });
}
