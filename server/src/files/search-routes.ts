// GET /api/v4/file/search?q=&page_size=&next_page_token= (Files.Read).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Envelope, Nullable, View } from '../http/contract.js';
import { READ } from './schemas.js';
import type { FileSearch } from './search.js';
import { FileViewSchema, toFileView } from './views.js';

const Query = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 1000 }),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  next_page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

const SearchPage = View(
  { files: Type.Array(FileViewSchema), next_page_token: Nullable('string', { description: 'null on the last page' }) },
  { title: 'SearchPage' },
);

export function searchRoutes(app: FastifyInstance, search: FileSearch): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/file/search',
    {
      config: READ,
      schema: {
        description: 'Files and folders whose name contains q (case-insensitive, any script), not trashed, a page at a time.',
        querystring: Query,
        response: { 200: Envelope(SearchPage) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await search.search(requireAuth(request).user.id, q.q, q.page_size ?? 100, q.next_page_token);
      return ok({ files: page.entries.map(toFileView), next_page_token: page.nextPageToken });
    },
  );
}
