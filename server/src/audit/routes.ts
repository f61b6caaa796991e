// The administrators' audit API (api-contract §17): the list (newest first,
// filters, a cursor to older rows), the export (JSON lines or CSV, streamed,
// oldest first: the chain's order) and verify. Admin only (Admin.Read); the
// retention is the site setting `audit_retention_days`.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';
import { Bytes, DateTime, Envelope, Nullable, View } from '../http/contract.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { AuditRow } from './chain.js';
import type { AuditFilter } from './repository.js';
import type { AuditLog } from './service.js';
import { csvHeader, csvLine, toAuditView } from './views.js';

const ADMIN_READ = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };

const AuditView = View(
  {
    seq: Type.Integer(),
    at: DateTime,
    actor_id: Type.Optional(Type.String({ description: 'the UID of who acted; absent when nobody was signed in (a failed sign-in)' })),
    ip: Type.String(),
    user_agent: Type.String(),
    instance: Type.String({ description: 'the server instance that recorded the event' }),
    action: Type.String({ description: 'a dotted name: session.sign_in, admin.user_created, … (docs/api.md)' }),
    target_type: Type.String(),
    target_id: Type.String(),
    detail: Type.Unknown({ description: 'an object; never a secret' }),
    hash: Type.String({ description: 'hex SHA-256 over the previous row\'s hash and this row' }),
  },
  { title: 'AuditEvent' },
);

const Filters = {
  action: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*\\.?$', maxLength: 64, description: 'an action name, or a prefix ending in "." (session. matches every session event)' })),
  actor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'the UID of the actor' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events at or after' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; events at or before' })),
};

function filterOf(q: { action?: string; actor?: string; since?: string; until?: string }): AuditFilter {
  const time = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) throw new DomainError(ErrorCode.ParamError, `${name}: not an RFC 3339 time`);
    return ms;
  };
  return { action: q.action, actorId: q.actor, since: time('since', q.since), until: time('until', q.until) };
}

export function auditRoutes(app: FastifyInstance, audit: AuditLog): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/admin/audit',
    {
      config: ADMIN_READ,
      schema: {
        description: 'The audit log, newest first; `cursor` (from the previous page) pages to older rows. Filters combine.',
        querystring: Type.Object({
          ...Filters,
          cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        }),
        response: { 200: Envelope(View({ items: Type.Array(AuditView), cursor: Nullable('string', { description: 'the next (older) page; null at the end' }) }, { title: 'AuditPage' })) },
      },
    },
    async (request) => {
      const size = request.query.page_size ?? 50;
      const before = request.query.cursor === undefined ? undefined : Number(request.query.cursor);
      const rows = await audit.list(filterOf(request.query), before, size + 1);
      const page = rows.slice(0, size);
      return ok({ items: page.map(toAuditView), cursor: rows.length > size ? String(page.at(-1)!.seq) : null });
    },
  );

  r.get(
    '/api/v4/admin/audit/export',
    {
      config: ADMIN_READ,
      schema: {
        description: 'Every matching row, oldest first (the chain\'s order), streamed: one JSON object a line (jsonl) or CSV with a header line (csv).',
        querystring: Type.Object({ ...Filters, format: Type.Optional(Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], { default: 'jsonl' })) }),
        response: { 200: Bytes('the rows', 'application/x-ndjson') },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'jsonl';
      const rows = audit.rows(filterOf(request.query));
      async function* lines(): AsyncGenerator<string> {
        if (format === 'csv') yield csvHeader();
        for await (const row of rows as AsyncIterable<AuditRow>) yield format === 'csv' ? csvLine(row) : `${JSON.stringify(toAuditView(row))}\n`;
      }
      const stamp = new Date().toISOString().slice(0, 10);
      // The rows hold what clients sent (user agents, names): served as user content, a sandbox that runs nothing.
      reply.headers(USER_CONTENT_HEADERS);
      reply.header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      reply.header('Content-Disposition', `attachment; filename="cirrus-audit-${stamp}.${format}"`);
      return reply.send(Readable.from(lines(), { objectMode: false }));
    },
  );

  r.post(
    '/api/v4/admin/audit/verify',
    {
      config: ADMIN_READ,
      schema: {
        description: 'Walks the hash chain: ok, how many rows were checked, and the seq of the first row changed or missing.',
        response: { 200: Envelope(View({ ok: Type.Boolean(), checked: Type.Integer(), first_bad_seq: Type.Optional(Type.Integer()) }, { title: 'AuditVerification' })) },
      },
    },
    async () => ok(await audit.verify()),
  );
}
