// User groups for administrators: list (Admin.Read), create, change, delete (Admin.Write).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { GroupId, NO_CONTROL } from '../http/schemas.js';
import { GroupSchema, okEnvelope } from '../admin/schemas.js';
import type { GroupService } from './groups.js';

const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

const GroupIdParam = Type.Object({ id: GroupId });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL }),
  is_admin: Type.Optional(Type.Boolean()),
  // Up to 1 PiB: large enough for any quota, small enough to stay an exact integer everywhere.
  storage_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 50 })),
};
const CreateBody = Type.Object(fields, { additionalProperties: false });
const UpdateBody = Type.Object({ ...fields, name: Type.Optional(fields.name) }, { additionalProperties: false });

export function groupRoutes(app: FastifyInstance, groups: GroupService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = { response: { 200: okEnvelope(GroupSchema) } };

  r.get('/api/v4/admin/group', { config: read, schema: { response: { 200: okEnvelope(Type.Array(GroupSchema)) } } }, async () => ok(await groups.list()));

  r.put('/api/v4/admin/group', { config: write, schema: { body: CreateBody, ...one } }, async (request) => ok(await groups.create(request.body)));

  r.put('/api/v4/admin/group/:id', { config: write, schema: { params: GroupIdParam, body: UpdateBody, ...one } }, async (request) =>
    ok(await groups.update(request.params.id, request.body)),
  );

  r.delete('/api/v4/admin/group/:id', { config: write, schema: { params: GroupIdParam } }, async (request) => {
    await groups.delete(request.params.id);
    return ok(null);
  });
}
