// Team folders for administrators (Dashboard → Groups): list, create, change,
// delete, and per-member overrides. Admin.Read / Admin.Write like the groups.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { GroupId, NO_CONTROL } from '../http/schemas.js';
import { Body, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import type { TeamService } from './service.js';

const read = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const write = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

const TeamFolderSchema = View(
  {
    id: Type.String(),
    group_id: Type.Integer(),
    name: Type.String(),
    permission: StringEnum(['read', 'write'], { description: "what the group's members may do, unless overridden" }),
    storage_quota: Type.Integer({ description: 'bytes' }),
    storage_used: Type.Integer({ description: 'bytes, trash and versions included' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TeamFolder' },
);
const OverrideSchema = View(
  { user_id: Type.String(), email: Type.String(), nickname: Type.String(), permission: StringEnum(['read', 'write', 'none']) },
  { title: 'TeamFolderOverride' },
);

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const IdParam = Type.Object({ id: Id });
const MemberParam = Type.Object({ id: Id, user: Id });
const Name = Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL });
const Quota = Type.Integer({ minimum: 0, maximum: 2 ** 50, description: 'bytes' });
const Permission = StringEnum(['read', 'write']);

export function teamRoutes(app: FastifyInstance, teams: TeamService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/admin/team-folder',
    {
      config: read,
      schema: { description: 'Team folders, oldest first; with group_id, only that group\'s.', querystring: Type.Object({ group_id: Type.Optional(GroupId) }), response: { 200: Envelope(Type.Array(TeamFolderSchema)) } },
    },
    async (request) => ok(await teams.list(request.query.group_id)),
  );

  r.put(
    '/api/v4/admin/team-folder',
    {
      config: write,
      schema: {
        description: 'Creates a team folder owned by a group, with its own quota. 409 when the group has one of that name.',
        body: Body({ group_id: GroupId, name: Name, storage_quota: Quota, permission: Type.Optional(Permission) }),
        response: { 200: Envelope(TeamFolderSchema), ...errors(409) },
      },
    },
    async (request) => ok(await teams.create(request.body)),
  );

  r.get(
    '/api/v4/admin/team-folder/:id',
    { config: read, schema: { params: IdParam, response: { 200: Envelope(TeamFolderSchema), ...errors(404) } } },
    async (request) => ok(await teams.get(request.params.id)),
  );

  r.put(
    '/api/v4/admin/team-folder/:id',
    {
      config: write,
      schema: {
        description: "Renames a team folder, changes its quota or the group's permission.",
        params: IdParam,
        body: Body({ name: Type.Optional(Name), storage_quota: Type.Optional(Quota), permission: Type.Optional(Permission) }),
        response: { 200: Envelope(TeamFolderSchema), ...errors(404, 409) },
      },
    },
    async (request) => ok(await teams.update(request.params.id, request.body)),
  );

  r.delete(
    '/api/v4/admin/team-folder/:id',
    { config: write, schema: { description: 'Deletes a team folder and every file in it, for good.', params: IdParam, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await teams.delete(request.params.id);
      return ok(null);
    },
  );

  r.get(
    '/api/v4/admin/team-folder/:id/member',
    { config: read, schema: { description: 'The per-member overrides.', params: IdParam, response: { 200: Envelope(Type.Array(OverrideSchema)), ...errors(404) } } },
    async (request) => ok(await teams.overrides(request.params.id)),
  );

  r.put(
    '/api/v4/admin/team-folder/:id/member/:user',
    {
      config: write,
      schema: {
        description: "Sets one member's permission (read, write, or none: the folder is hidden from them); null removes the override. Answers all overrides.",
        params: MemberParam,
        body: Body({ permission: Nullable('string', { enum: ['read', 'write', 'none', null] }) }),
        response: { 200: Envelope(Type.Array(OverrideSchema)), ...errors(404) },
      },
    },
    async (request) => ok(await teams.setOverride(request.params.id, request.params.user, request.body.permission as 'read' | 'write' | 'none' | null)),
  );
}
