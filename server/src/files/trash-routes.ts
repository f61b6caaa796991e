// Trash routes: list, restore, delete for good, empty.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import type { TrashService } from './trash.js';
import { batchResult, toFileView, toTrashView, BatchResultSchema, FileViewSchema, TrashViewSchema } from './views.js';
import { Body, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { Ids, PageQuery, READ, WRITE } from './schemas.js';

export function trashRoutes(app: FastifyInstance, trash: TrashService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const IdsBody = Body({ ids: Ids });
  const TrashPage = View(
    {
      files: Type.Array(TrashViewSchema),
      next_page_token: Nullable('string'),
      own_count: Type.Integer({ description: "items in the person's own trash: exactly what DELETE /file/trash deletes" }),
      team_count: Type.Integer({ description: 'items listed from team folders the person may write to: DELETE /file/trash leaves them (delete them for good by id)' }),
    },
    { title: 'TrashPage' },
  );

  r.get('/api/v4/file/trash', { config: READ, schema: { querystring: Type.Object(PageQuery), response: { 200: Envelope(TrashPage) } } }, async (request) => {
    const page = await trash.list(requireAuth(request).user.id, request.query.page_size ?? 100, request.query.next_page_token);
    return ok({ files: page.entries.map(toTrashView), next_page_token: page.nextPageToken, own_count: page.ownCount, team_count: page.teamCount });
  });

  const RestoreBody = Body({
    ids: Ids,
    on_conflict: Type.Optional(
      StringEnum(['rename', 'fail', 'replace'], {
        description: 'when the original name is taken: rename (default) restores as "name (1)", fail answers 409 for that item, replace moves the item in the way to the trash',
      }),
    ),
  });
  r.post(
    '/api/v4/file/trash/restore',
    { config: WRITE, schema: { body: RestoreBody, response: { 200: Envelope(BatchResultSchema('id', FileViewSchema)), ...errors(404, 409) } } },
    async (request) => ok(batchResult(await trash.restore(requireAuth(request).user.id, request.body.ids, request.body.on_conflict ?? 'rename'), 'id', toFileView)),
  );

  r.post('/api/v4/file/trash/delete', { config: WRITE, schema: { body: IdsBody, response: { 200: Envelope(BatchResultSchema('id')) } } }, async (request) => {
    return ok(batchResult(await trash.purge(requireAuth(request).user.id, request.body.ids), 'id'));
  });

  r.delete('/api/v4/file/trash', { config: WRITE, schema: { response: { 200: Envelope(View({ deleted: Type.Integer() }, { title: 'TrashEmptied' })) } } }, async (request) => ok({ deleted: await trash.empty(requireAuth(request).user.id) }));
}
