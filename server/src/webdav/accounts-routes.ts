// WebDAV accounts (api-contract §8, Cloudreve's routes): list, create (the
// password is in this answer only), change, delete.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Path } from '../files/schemas.js';
import { toAccountView, type DavAccountService } from './accounts.js';

const READ = { auth: 'required' as const, scopes: ['DavAccount.Read'] };
const WRITE = { auth: 'required' as const, scopes: ['DavAccount.Write'] };

const AccountName = Type.String({ minLength: 1, maxLength: 128 });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });

export const DavAccountSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    path: Type.String({ description: 'The folder the account sees as /dav/' }),
    readonly: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'DavAccount' },
);
export const NewDavAccountSchema = Type.Object(
  { ...DavAccountSchema.properties, password: Type.String({ description: 'Shown only in this answer' }) },
  { additionalProperties: false, title: 'NewDavAccount' },
);
const ChangedDavAccountSchema = Type.Object(
  { ...DavAccountSchema.properties, password: Type.Optional(Type.String({ description: 'Present only when regenerate_password was true' })) },
  { additionalProperties: false, title: 'ChangedDavAccount' },
);
const envelope = <T extends Parameters<typeof Type.Object>[0][string]>(data: T) =>
  Type.Object({ code: Type.Integer(), data, msg: Type.String() }, { additionalProperties: false });

const CreateBody = Type.Object(
  { name: AccountName, path: Type.Optional(Path), readonly: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const ChangeBody = Type.Object(
  { name: Type.Optional(AccountName), path: Type.Optional(Path), readonly: Type.Optional(Type.Boolean()), regenerate_password: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export function davAccountRoutes(app: FastifyInstance, accounts: DavAccountService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/devices/dav',
    { config: READ, schema: { description: 'Lists the WebDAV accounts of the signed-in person.', response: { 200: envelope(Type.Object({ accounts: Type.Array(DavAccountSchema) }, { additionalProperties: false })) } } },
    async (request) => ok({ accounts: (await accounts.list(requireAuth(request).user.id)).map(toAccountView) }),
  );

  r.put(
    '/api/v4/devices/dav',
    { config: { ...WRITE, issuesCredentials: true }, schema: { description: 'Creates a WebDAV account; the generated password is in this answer only.', body: CreateBody, response: { 200: envelope(NewDavAccountSchema) } } },
    async (request) => {
      const { row, password } = await accounts.create(requireAuth(request).user.id, request.body);
      return ok({ ...toAccountView(row), password });
    },
  );

  r.patch(
    '/api/v4/devices/dav/:id',
    { config: { ...WRITE, issuesCredentials: true }, schema: { description: 'Changes a WebDAV account; regenerate_password returns a new password once.', params: IdParams, body: ChangeBody, response: { 200: envelope(ChangedDavAccountSchema) } } },
    async (request) => {
      const { row, password } = await accounts.update(requireAuth(request).user.id, request.params.id, request.body);
      return ok({ ...toAccountView(row), ...(password !== null ? { password } : {}) });
    },
  );

  r.delete(
    '/api/v4/devices/dav/:id',
    { config: WRITE, schema: { description: 'Deletes a WebDAV account: its device is cut off at once.', params: IdParams, response: { 200: envelope(Type.Null()) } } },
    async (request) => {
      await accounts.delete(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );
}
