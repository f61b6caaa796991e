// Prometheus metrics (api-contract §9): GET /metrics, served only when
// CIRRUS_METRICS_TOKEN is set and only to `Authorization: Bearer <token>`.
// Counted at the HTTP boundary, so no feature carries metrics code: requests
// and latency by route and status, tokens issued (by the route that issues
// them) and refused (by the reason the guard gave), sign-in failures,
// throttled requests, bytes in and out (socket byte counters around each
// request), the PostgreSQL pool, event-loop lag (prom-client's defaults) and
// background job failures (reported by the jobs that run in the background),
// and the audit log's events and administrator actions (audit/service.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DomainError, ErrorCode } from '../core/errors.js';
import { HttpError } from '../http/errors.js';
import { safeEqual } from '../crypto/compare.js';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'cirrus_http_requests_total', help: 'HTTP requests by route, method and status', labelNames: ['route', 'method', 'status'], registers: [this.registry] });
  private readonly latency = new Histogram({
    name: 'cirrus_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [this.registry],
  });
  private readonly issued = new Counter({ name: 'cirrus_tokens_issued_total', help: 'Token pairs issued, by kind', labelNames: ['kind'], registers: [this.registry] });
  private readonly refused = new Counter({ name: 'cirrus_tokens_refused_total', help: 'Access tokens refused, by kind and reason', labelNames: ['kind', 'reason'], registers: [this.registry] });
  private readonly signInFailures = new Counter({ name: 'cirrus_sign_in_failures_total', help: 'Failed sign-ins (password or second factor)', registers: [this.registry] });
  private readonly throttled = new Counter({ name: 'cirrus_throttled_requests_total', help: 'Requests answered 429', labelNames: ['route'], registers: [this.registry] });
  private readonly bytesIn = new Counter({ name: 'cirrus_bytes_received_total', help: 'Bytes received on request connections (headers and bodies)', registers: [this.registry] });
  private readonly bytesOut = new Counter({ name: 'cirrus_bytes_sent_total', help: 'Bytes sent on response connections (headers and bodies)', registers: [this.registry] });
  private readonly scans = new Counter({ name: 'cirrus_antivirus_scans_total', help: 'Uploads scanned by clamd, by result: clean, infected, failed (no verdict)', labelNames: ['result'], registers: [this.registry] });
  private readonly adminActions = new Counter({ name: 'cirrus_admin_actions_total', help: 'Administrator actions that succeeded (audit log), by action', labelNames: ['action'], registers: [this.registry] });
  private readonly auditEvents = new Counter({ name: 'cirrus_audit_events_total', help: 'Events recorded in the audit log by this instance', registers: [this.registry] });
  readonly jobFailures = new Counter({ name: 'cirrus_background_job_failures_total', help: 'Failures of background jobs, by job', labelNames: ['job'], registers: [this.registry] });

  constructor(pool?: () => PoolStats | undefined, statements?: () => number) {
    collectDefaultMetrics({ register: this.registry, prefix: 'cirrus_' });
    if (statements) {
      let seen = 0;
      new Counter({
        name: 'cirrus_db_statements_total',
        help: 'Statements sent to the database (BEGIN and COMMIT included)',
        registers: [this.registry],
        collect() {
          const now = statements();
          this.inc(now - seen);
          seen = now;
        },
      });
    }
    if (pool) {
      for (const field of ['total', 'idle', 'waiting'] as const) {
        new Gauge({
          name: `cirrus_db_pool_${field}`,
          help: `PostgreSQL pool: ${field} connections${field === 'waiting' ? ' (queued requests for one)' : ''}`,
          registers: [this.registry],
          collect() {
            const stats = pool();
            if (stats) this.set(stats[field]);
          },
        });
      }
    }
  }

  jobFailed(job: string): void {
    this.jobFailures.inc({ job });
  }

  /** Gauges of the uploads and downloads in flight on this instance (files/transfers.ts). */
  watchTransfers(inFlight: (kind: 'uploads' | 'downloads') => number): void {
    for (const kind of ['uploads', 'downloads'] as const) {
      new Gauge({
        name: `cirrus_${kind}_in_flight`,
        help: kind === 'uploads' ? 'Upload bodies being received now' : 'Responses streaming file bytes now',
        registers: [this.registry],
        collect() {
          this.set(inFlight(kind));
        },
      });
    }
  }

  /** An event recorded in the audit log (audit/service.ts). */
  audited(action: string): void {
    this.auditEvents.inc();
    if (action.startsWith('admin.')) this.adminActions.inc({ action });
  }

  scanned(result: 'clean' | 'infected' | 'failed'): void {
    this.scans.inc({ result });
  }

  /** Counts every request when its response has gone out. */
  register(app: FastifyInstance, token: string | undefined): void {
    const started = new WeakMap<FastifyRequest, { at: bigint; read: number; written: number }>();
    app.addHook('onRequest', async (request) => {
      const socket = request.raw.socket;
      started.set(request, { at: process.hrtime.bigint(), read: socket?.bytesRead ?? 0, written: socket?.bytesWritten ?? 0 });
    });
    app.addHook('onError', async (request, _reply, err) => {
      const error: unknown = err;
      if (error instanceof DomainError && error.code === ErrorCode.LoginRequired && request.headers.authorization) {
        this.refused.inc({ kind: 'access', reason: refusalReason(error) });
      }
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = { route, method: request.method, status: String(reply.statusCode) };
      this.requests.inc(labels);
      const s = started.get(request);
      if (s) {
        this.latency.observe(labels, Number(process.hrtime.bigint() - s.at) / 1e9);
        const socket = request.raw.socket;
        // Sockets serve one request at a time (no pipelining in practice): the deltas are this exchange's bytes.
        if (socket) {
          this.bytesIn.inc(Math.max(0, socket.bytesRead - s.read));
          this.bytesOut.inc(Math.max(0, socket.bytesWritten - s.written));
        }
      }
      if (reply.statusCode === 429) this.throttled.inc({ route });
      const issuing = ISSUING_ROUTES[route];
      if (issuing && request.method === 'POST') {
        if (reply.statusCode === 200) this.issued.inc({ kind: issuing });
        else if (issuing === 'sign_in' && reply.statusCode === 401) this.signInFailures.inc();
        else if (issuing !== 'sign_in' && (reply.statusCode === 400 || reply.statusCode === 401)) this.refused.inc({ kind: issuing === 'oauth' ? 'oauth_grant' : 'refresh', reason: 'invalid' });
      }
    });

    app.get('/metrics', { config: { auth: 'none' } }, async (request, reply: FastifyReply) => {
      if (!token) throw new DomainError(ErrorCode.NotFound, 'Not found');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!safeEqual(given, token)) throw new HttpError(ErrorCode.LoginRequired, 'A valid metrics token is required', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
      reply.header('Cache-Control', 'no-store');
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}

/** Routes whose 200 answer issues tokens, and what kind. */
const ISSUING_ROUTES: Record<string, string> = {
  '/api/v4/session/token': 'sign_in',
  '/api/v4/session/token/2fa': 'sign_in',
  '/api/v4/session/token/refresh': 'refresh',
  '/api/v4/session/oauth/token': 'oauth',
};

/** A bounded set of reasons, from what the guard told the client. */
function refusalReason(error: DomainError): string {
  const described = error instanceof HttpError ? String(error.headers['WWW-Authenticate'] ?? '') : '';
  if (!described.includes('invalid_token')) return 'missing';
  if (/revoked/.test(described)) return 'revoked';
  if (/expired/.test(described)) return 'expired';
  if (/user unavailable/.test(described)) return 'user_unavailable';
  return 'invalid';
}
