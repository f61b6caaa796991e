// GET /api/v4/file/search?q=&page_size=&next_page_token= (Files.Read).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { READ } from './schemas.js';
import type { FileSearch } from './search.js';
import { toFileView } from './views.js';

const Query = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 1000 }),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  next_page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

const FileView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  path: Type.String(),
  type: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  size: Type.Integer(),
  mime_type: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const Response = Type.Object({
  code: Type.Integer(),
  data: Type.Object({ files: Type.Array(FileView), next_page_token: Type.Union([Type.String(), Type.Null()]) }),
  msg: Type.String(),
});

export function searchRoutes(app: FastifyInstance, search: FileSearch): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v4/file/search', { config: READ, schema: { querystring: Query, response: { 200: Response } } }, async (request) => {
    const q = request.query;
    const page = await search.search(requireAuth(request).user.id, q.q, q.page_size ?? 100, q.next_page_token);
    return ok({ files: page.entries.map(toFileView), next_page_token: page.nextPageToken });
  });
}
