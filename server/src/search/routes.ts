// GET /api/v4/admin/search/status and POST /api/v4/admin/search/reindex (admins).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, View } from '../http/contract.js';
import type { ContentSearch } from './service.js';
import { SearchStatusSchema } from './schemas.js';

const ReindexBody = Body({ user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Only this person's files; all files when absent" })) });

export function searchAdminRoutes(app: FastifyInstance, search: ContentSearch): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/admin/search/status',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Read'] },
      schema: { description: 'How many documents are indexed, waiting and failed, and the latest failures.', response: { 200: Envelope(SearchStatusSchema) } },
    },
    async () => ok(await search.status()),
  );
  r.post(
    '/api/v4/admin/search/reindex',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Write'] },
      schema: {
        description: "Extracts the text of every document again (or of one person's); the old text answers searches until replaced.",
        body: Type.Optional(ReindexBody),
        response: { 200: Envelope(View({ queued: Type.Integer() }, { title: 'SearchReindex' })) },
      },
    },
    async (request) => ok({ queued: await search.reindex(request.body?.user_id) }),
  );
}
