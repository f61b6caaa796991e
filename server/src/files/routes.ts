// Tree routes (api-contract §6): listing, info, create, rename, move/copy,
// delete, and the user's capacity.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { badRequest } from '../core/errors.js';
import { requireAuth } from '../http/auth.js';
import type { FilesService } from './service.js';
import { batchResult, toFileView } from './views.js';
import { FileId, Name, PageQuery, Path, Paths, READ, WRITE } from './schemas.js';

export function fileRoutes(app: FastifyInstance, files: FilesService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/file',
    {
      config: READ,
      schema: {
        querystring: Type.Object({
          path: Type.Optional(Path),
          ...PageQuery,
          order_by: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('size'), Type.Literal('updated_at')])),
          order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        }),
      },
    },
    async (request) => {
      const owner = requireAuth(request).user.id;
      const folder = await files.resolve(owner, request.query.path ?? '/');
      const sort = { by: request.query.order_by ?? 'name', desc: request.query.order === 'desc' };
      const page = await files.list(folder, request.query.page_size ?? 100, request.query.next_page_token, sort);
      return ok({ files: page.entries.map(toFileView), next_page_token: page.nextPageToken, parent: toFileView(folder) });
    },
  );

  r.get(
    '/api/v4/file/info',
    { config: READ, schema: { querystring: Type.Object({ path: Type.Optional(Path), id: Type.Optional(FileId) }) } },
    async (request) => {
      const owner = requireAuth(request).user.id;
      const { path, id } = request.query;
      if ((path === undefined) === (id === undefined)) throw badRequest('path or id: give exactly one');
      return ok(toFileView(id !== undefined ? await files.getById(owner, id) : await files.resolve(owner, path!)));
    },
  );

  r.post(
    '/api/v4/file/create',
    {
      config: WRITE,
      schema: { body: Type.Object({ path: Path, type: Type.Union([Type.Literal('file'), Type.Literal('folder')]) }, { additionalProperties: false }) },
    },
    async (request) => ok(toFileView(await files.create(requireAuth(request).user.id, request.body.path, request.body.type))),
  );

  r.post(
    '/api/v4/file/rename',
    { config: WRITE, schema: { body: Type.Object({ path: Path, new_name: Name }, { additionalProperties: false }) } },
    async (request) => ok(toFileView(await files.rename(requireAuth(request).user.id, request.body.path, request.body.new_name))),
  );

  r.post(
    '/api/v4/file/move',
    { config: WRITE, schema: { body: Type.Object({ paths: Paths, dst: Path, copy: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) } },
    async (request) => {
      const items = await files.transfer(requireAuth(request).user.id, request.body.paths, request.body.dst, request.body.copy === true);
      return ok(batchResult(items, 'path', toFileView));
    },
  );

  r.delete(
    '/api/v4/file',
    { config: WRITE, schema: { body: Type.Object({ paths: Paths, permanent: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) } },
    async (request) => {
      const items = await files.remove(requireAuth(request).user.id, request.body.paths, request.body.permanent === true);
      return ok(batchResult(items, 'path'));
    },
  );

  r.get('/api/v4/user/capacity', { config: READ }, async (request) => ok(await files.capacity(requireAuth(request).user.id)));
}
