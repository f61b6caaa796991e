// GET /api/v4/file/search?q=&scope=&type=&modified_after=&page_size=&next_page_token= (Files.Read).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { DateTime, Envelope, Nullable, StringEnum, View } from '../http/contract.js';
import { badRequest } from '../core/errors.js';
import { READ } from './schemas.js';
import { SEARCH_TYPES, type FileSearch } from './search.js';
import { FileViewSchema, toFileView } from './views.js';

const Query = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 1000 }),
  scope: Type.Optional(StringEnum(['name', 'content', 'all'], { description: 'name: names only; content: text inside documents only; all (default): either' })),
  type: Type.Optional(StringEnum([...SEARCH_TYPES], { description: 'only items of this kind (document: text, word processing, spreadsheets, presentations)' })),
  modified_after: Type.Optional(DateTime),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  next_page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

const SearchHitSchema = View(
  {
    ...FileViewSchema.properties,
    snippet: Type.Optional(Type.String({ description: 'content matches only: HTML, the text around the match with <mark>…</mark> around it, everything else escaped' })),
  },
  { title: 'SearchHit' },
);

const SearchPage = View(
  {
    files: Type.Array(SearchHitSchema),
    next_page_token: Nullable('string', { description: 'null on the last page' }),
    indexing_pending: Type.Optional(
      Type.Integer({ minimum: 0, description: "scope content or all, first page only: how many of the caller's own files still wait for their text to be extracted (they cannot be found by content yet)" }),
    ),
  },
  { title: 'SearchPage' },
);

export function searchRoutes(app: FastifyInstance, search: FileSearch): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/file/search',
    {
      config: READ,
      schema: {
        description:
          'Files and folders whose name contains q (case-insensitive, any script), and documents whose text matches it (words ANDed, "a phrase" in order, -word excluded), not trashed, a page at a time in name order.',
        querystring: Query,
        response: { 200: Envelope(SearchPage) },
      },
    },
    async (request) => {
      const q = request.query;
      const modifiedAfter = q.modified_after === undefined ? undefined : Date.parse(q.modified_after);
      if (Number.isNaN(modifiedAfter)) throw badRequest('modified_after: must be an RFC 3339 date-time');
      const page = await search.search(requireAuth(request).user.id, q.q, q.page_size ?? 100, q.next_page_token, q.scope ?? 'all', { type: q.type, modifiedAfter });
      return ok({
        files: page.hits.map((h) => (h.snippet === undefined ? toFileView(h.entry) : { ...toFileView(h.entry), snippet: h.snippet })),
        next_page_token: page.nextPageToken,
        ...(page.indexingPending === undefined ? {} : { indexing_pending: page.indexingPending }),
      });
    },
  );
}
