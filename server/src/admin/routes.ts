// GET /api/v4/admin/summary: the dashboard's overview (Admin.Read).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { Envelope } from '../http/contract.js';
import { SummarySchema } from './schemas.js';
import type { SummaryService } from './summary.js';

export function adminSummaryRoutes(app: FastifyInstance, summary: SummaryService): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/admin/summary',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Read'] },
      schema: { description: 'Counts, site facts and the last 30 days of sign-ups and uploads.', response: { 200: Envelope(SummarySchema) } },
    },
    async () => ok(await summary.summary()),
  );
}
