// Tree routes (api-contract §6): listing, info, create, rename, move/copy,
// delete, and the user's capacity.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { badRequest } from '../core/errors.js';
import { requireAuth } from '../http/auth.js';
import type { FilesService } from './service.js';
import { batchResult, BatchResultSchema, FileViewSchema, toFileInfoView, toFileView } from './views.js';
import { Body, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';

const FileResponse = { 200: Envelope(FileViewSchema), ...errors(404) };
const FolderPage = View(
  {
    files: Type.Array(FileViewSchema),
    next_page_token: Nullable('string', { description: 'null on the last page' }),
    parent: FileViewSchema,
  },
  { title: 'FolderPage' },
);
import { FileId, Name, PageQuery, Path, Paths, READ, WRITE } from './schemas.js';

export function fileRoutes(app: FastifyInstance, files: FilesService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/file',
    {
      config: READ,
      schema: {
        description: 'Lists a folder a page at a time, folders first, sorted by name (default), size or last change.',
        querystring: Type.Object({
          path: Type.Optional(Path),
          ...PageQuery,
          order_by: Type.Optional(StringEnum(['name', 'size', 'updated_at'], { description: 'default name' })),
          order: Type.Optional(StringEnum(['asc', 'desc'], { description: 'default asc' })),
        }),
        response: { 200: Envelope(FolderPage), ...errors(404) },
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
    { config: READ, schema: { querystring: Type.Object({ path: Type.Optional(Path), id: Type.Optional(FileId) }), response: FileResponse } },
    async (request) => {
      const owner = requireAuth(request).user.id;
      const { path, id } = request.query;
      if ((path === undefined) === (id === undefined)) throw badRequest('path or id: give exactly one');
      const entry = id !== undefined ? await files.getById(owner, id) : await files.resolve(owner, path!);
      return ok(toFileInfoView(entry, await files.mediaOf(entry)));
    },
  );

  const Exists = View(
    {
      results: Type.Array(
        View(
          {
            path: Type.String(),
            exists: Type.Boolean(),
            type: Nullable('string', { description: "'file' or 'folder' when it exists" }),
            code: Type.Integer({ description: '0, or 40001 when the path is not a valid path (msg says why)' }),
            msg: Type.String(),
          },
          { title: 'ExistsResult' },
        ),
      ),
    },
    { title: 'ExistsResults' },
  );
  r.post(
    '/api/v4/file/exists',
    {
      config: READ,
      schema: {
        description:
          'Checks which paths are taken, always with 200 (the upload dialog\'s name check: no 404 per missing name). A path that is not valid (e.g. a name with "\\") gets code 40001 and the reason, the others their answer.',
        body: Body({ paths: Paths }),
        response: { 200: Envelope(Exists) },
      },
    },
    async (request) => {
      const items = await files.existing(requireAuth(request).user.id, request.body.paths);
      return ok({
        results: items.map((i) =>
          i.error
            ? { path: i.path, exists: false, type: null, code: i.error.code, msg: i.error.message }
            : { path: i.path, exists: i.result != null, type: i.result ? toFileView(i.result).type : null, code: 0, msg: '' },
        ),
      });
    },
  );

  r.post(
    '/api/v4/file/create',
    {
      config: WRITE,
      schema: { body: Body({ path: Path, type: StringEnum(['file', 'folder']) }), response: { ...FileResponse, ...errors(409) } },
    },
    async (request) => ok(toFileView(await files.create(requireAuth(request).user.id, request.body.path, request.body.type))),
  );

  r.post(
    '/api/v4/file/rename',
    { config: WRITE, schema: { body: Body({ path: Path, new_name: Name }), response: { ...FileResponse, ...errors(409) } } },
    async (request) => ok(toFileView(await files.rename(requireAuth(request).user.id, request.body.path, request.body.new_name))),
  );

  r.post(
    '/api/v4/file/move',
    {
      config: WRITE,
      schema: {
        description: 'Moves or copies; per-item results. When every item fails, the first item\'s error is the answer, with the results in data.',
        body: Body({ paths: Paths, dst: Path, copy: Type.Optional(Type.Boolean()) }),
        response: { 200: Envelope(BatchResultSchema('path', FileViewSchema)), ...errors(404, 409, 413) },
      },
    },
    async (request) => {
      const items = await files.transfer(requireAuth(request).user.id, request.body.paths, request.body.dst, request.body.copy === true);
      return ok(batchResult(items, 'path', toFileView));
    },
  );

  r.delete(
    '/api/v4/file',
    {
      config: WRITE,
      schema: {
        description: 'Moves to the trash (or deletes for good with permanent); per-item results.',
        body: Body({ paths: Paths, permanent: Type.Optional(Type.Boolean()) }),
        response: { 200: Envelope(BatchResultSchema('path')), ...errors(404) },
      },
    },
    async (request) => {
      const items = await files.remove(requireAuth(request).user.id, request.body.paths, request.body.permanent === true);
      return ok(batchResult(items, 'path'));
    },
  );

  const Capacity = View(
    {
      used: Type.Integer({ description: 'bytes, versions included' }), total: Type.Integer({ description: 'bytes' }), versions: Type.Integer({ description: 'bytes of file versions (part of used)' }),
      reserved: Type.Integer({ description: 'bytes held by uploads in flight (yours and those through your upload links), not part of used; what is free is total - used - reserved' }),
    },
    { title: 'Capacity' },
  );
  r.get('/api/v4/user/capacity', { config: READ, schema: { response: { 200: Envelope(Capacity) } } }, async (request) => ok(await files.capacity(requireAuth(request).user.id)));
}
