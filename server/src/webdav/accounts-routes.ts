// WebDAV accounts (api-contract §8, Cloudreve's routes): list, create (the
// password is in this answer only), change, delete.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Path } from '../files/schemas.js';
import { Body, DateTime, Envelope, Nullable, View, errors } from '../http/contract.js';
import type { DavAccountService } from './accounts.js';

const READ = { auth: 'required' as const, scopes: ['DavAccount.Read'] };
const WRITE = { auth: 'required' as const, scopes: ['DavAccount.Write'] };

const AccountName = Type.String({ minLength: 1, maxLength: 128 });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });

const DavAccountSchema = View(
  {
    id: Type.String(),
    name: Type.String(),
    path: Type.String({ description: 'The folder the account sees as /dav/' }),
    readonly: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
    last_seen_at: Nullable('string', { format: 'date-time', description: 'RFC 3339, UTC: when a client last used the account (recorded at most once a minute); null if never' }),
    client: Nullable('string', { description: "The User-Agent of the client that last used it (a sync client's names the app and system); null if never" }),
  },
  { title: 'DavAccount' },
);
const NewDavAccountSchema = View({ ...DavAccountSchema.properties, password: Type.String({ description: 'Shown only in this answer' }) }, { title: 'NewDavAccount' });
const ChangedDavAccountSchema = View(
  { ...DavAccountSchema.properties, password: Type.Optional(Type.String({ description: 'Present only when regenerate_password was true' })) },
  { title: 'ChangedDavAccount' },
);

const CreateBody = Body({ name: AccountName, path: Type.Optional(Path), readonly: Type.Optional(Type.Boolean()) });
const ChangeBody = Body({ name: Type.Optional(AccountName), path: Type.Optional(Path), readonly: Type.Optional(Type.Boolean()), regenerate_password: Type.Optional(Type.Boolean()) });

export function davAccountRoutes(app: FastifyInstance, accounts: DavAccountService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/devices/dav',
    { config: READ, schema: { description: 'Lists the WebDAV accounts of the signed-in person (app passwords of sync clients included), with when each was last used and by which client.', response: { 200: Envelope(View({ accounts: Type.Array(DavAccountSchema) }, { title: 'DavAccountList' })) } } },
    async (request) => ok({ accounts: await accounts.views(await accounts.list(requireAuth(request).user.id)) }),
  );

  r.put(
    '/api/v4/devices/dav',
    { config: { ...WRITE, issuesCredentials: true }, schema: { description: 'Creates a WebDAV account; the generated password is in this answer only.', body: CreateBody, response: { 200: Envelope(NewDavAccountSchema), ...errors(409) } } },
    async (request) => {
      const { row, password } = await accounts.create(requireAuth(request).user.id, request.body);
      return ok({ ...(await accounts.view(row)), password });
    },
  );

  r.patch(
    '/api/v4/devices/dav/:id',
    { config: { ...WRITE, issuesCredentials: true }, schema: { description: 'Changes a WebDAV account; regenerate_password returns a new password once.', params: IdParams, body: ChangeBody, response: { 200: Envelope(ChangedDavAccountSchema), ...errors(404) } } },
    async (request) => {
      const { row, password } = await accounts.update(requireAuth(request).user.id, request.params.id, request.body);
      return ok({ ...(await accounts.view(row)), ...(password !== null ? { password } : {}) });
    },
  );

  r.delete(
    '/api/v4/devices/dav/:id',
    { config: WRITE, schema: { description: 'Deletes a WebDAV account: its device is cut off at once.', params: IdParams, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await accounts.delete(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );
}
