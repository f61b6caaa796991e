// User groups for administrators: list (Admin.Read), create, change, delete (Admin.Write).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { GroupId, NO_CONTROL } from '../http/schemas.js';
import { GroupSchema } from '../admin/schemas.js';
import { Body, Envelope, errors } from '../http/contract.js';
import type { GroupService } from './groups.js';

const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

const GroupIdParam = Type.Object({ id: GroupId });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL }),
  is_admin: Type.Optional(Type.Boolean()),
  // Up to 1 PiB: large enough for any quota, small enough to stay an exact integer everywhere.
  storage_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 50 })),
  max_versions: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'file versions kept per file (default 10); 0 = none' })),
  version_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 36500, description: 'days a version is kept after it was replaced (default 30)' })),
};
const CreateBody = Body(fields);
const UpdateBody = Body({ ...fields, name: Type.Optional(fields.name) });

export function groupRoutes(app: FastifyInstance, groups: GroupService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/v4/admin/group', { config: read, schema: { response: { 200: Envelope(Type.Array(GroupSchema)) } } }, async () => ok(await groups.list()));

  r.put(
    '/api/v4/admin/group',
    { config: write, schema: { description: 'Creates a group; 409 when the name is taken (case-insensitively).', body: CreateBody, response: { 200: Envelope(GroupSchema), ...errors(409) } } },
    async (request) => ok(await groups.create(request.body)),
  );

  r.put(
    '/api/v4/admin/group/:id',
    {
      config: write,
      schema: {
        description: 'Changes a group. 403 when it would take administrator rights from the group of the last active administrators.',
        params: GroupIdParam,
        body: UpdateBody,
        response: { 200: Envelope(GroupSchema), ...errors(404, 409) },
      },
    },
    async (request) => ok(await groups.update(request.params.id, request.body)),
  );

  r.delete(
    '/api/v4/admin/group/:id',
    {
      config: write,
      schema: {
        description: 'Deletes an empty group; 409 while it has users (data.user_count) and for the default group for sign-up.',
        params: GroupIdParam,
        response: { 200: Envelope(Type.Null()), ...errors(404, 409) },
      },
    },
    async (request) => {
      await groups.delete(request.params.id);
      return ok(null);
    },
  );
}
