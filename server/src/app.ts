// Builds the Fastify instance from the feature modules. Production (main.ts)
// and the tests use this same factory.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import { createServices, type Services } from './services.js';
import { registerErrorHandler, sendError, toDomainError } from './http/error-handler.js';
import { registerAuthGuard } from './http/auth.js';
import { registerNoStore } from './http/no-store.js';
import { registerBaselineHeaders } from './http/baseline-headers.js';
import { registerCors } from './http/cors.js';
import { registerCompression } from './http/compression.js';
import { registerInputGuard } from './http/input-guard.js';
import { lazySerializerFactory, validatorCompilers } from './http/schema-compilers.js';
import { registerJsonParser } from './http/json-body.js';
import { clientErrorHandler, registerHostCheck } from './http/client-errors.js';
import { registerOpenApi } from './http/openapi.js';
import { serializeRequest } from './http/log-redaction.js';
import { siteRoutes } from './site/routes.js';
import { accountRoutes } from './accounts/routes.js';
import { avatarRoutes } from './accounts/avatar-routes.js';
import { adminAccountRoutes } from './accounts/admin-routes.js';
import { sessionRoutes } from './sessions/routes.js';
import { userSessionRoutes } from './sessions/user-session-routes.js';
import { UserSessions } from './sessions/user-sessions.js';
import { UserSessionsRepository } from './sessions/user-sessions-repository.js';
import { indexPageSender, webApp } from './web.js';
import { mapTileOrigins } from './site/map-tiles.js';
import { oauthRoutes } from './oauth/module.js';
import { filesRoutes } from './files/module.js';
import { feedModuleRoutes } from './files/events/module.js';
import { searchModuleRoutes } from './search/module.js';
import { mediaModuleRoutes } from './media/module.js';
import { sharingRoutes } from './sharing/module.js';
import { teamModuleRoutes } from './teams/module.js';
import { sharesRoutes } from './shares/module.js';
import { webdavRoutes } from './webdav/module.js';
import { syncRoutes } from './sync/module.js';
import { groupRoutes } from './accounts/group-routes.js';
import { adminSummaryRoutes } from './admin/routes.js';
import { healthRoutes } from './ops/health.js';
import { mailRoutes } from './mail/routes.js';
import { resetRoutes } from './accounts/reset-routes.js';
import { emailRoutes } from './accounts/email-routes.js';
import { activationRoutes } from './sessions/activation-routes.js';
import { passkeyRoutes } from './accounts/passkey-routes.js';
import { passkeySignInRoutes } from './sessions/passkey-routes.js';
import { logDestination } from './ops/readable-log.js';
import { identityModuleRoutes } from './identity/module.js';
import { registerAuditCapture } from './audit/capture.js';
import { activityModuleRoutes } from './activity/module.js';
import { auditRoutes } from './audit/routes.js';
import { notificationModuleRoutes } from './notifications/module.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

/** A registered route and its request schemas (the fuzz test walks every one). */
export interface RouteInfo {
  method: string;
  url: string;
  schema: { params?: unknown; querystring?: unknown; body?: unknown; headers?: unknown; response?: Record<string, unknown> } | undefined;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  routes: RouteInfo[];
}

export interface BuildOptions {
  logger?: boolean;
  /** Where log lines go instead of stdout (tests capture them to check that no secret is logged). */
  logStream?: NodeJS.WritableStream;
  /** Where every service reads the time (core/clock.ts); default the system clock. Tests pass a ManualClock. */
  clock?: Clock;
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const services = await createServices(config, { clock: opts.clock });
  const logStream = opts.logStream ?? (opts.logger === false ? undefined : logDestination(config.logFormat));
  const app = Fastify({
    logger: opts.logger === false ? false : {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.client_secret'], censor: '[redacted]' },
      serializers: { req: serializeRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    requestIdHeader: false,
    // Long path parameters (share ids, client ids) are validated by their schemas, not cut off with a bare 414.
    routerOptions: { maxParamLength: 1024 },
    // Errors raised before routing (bad URL encoding, over-long parameters)
    // get the envelope too, not Fastify's own body.
    frameworkErrors: (error, _request, reply) => sendError(reply, toDomainError(error)),
    // What Node's HTTP parser refuses gets the envelope too (http/client-errors.ts);
    // a missing Host is refused by our hook, because Node's own answer has no body.
    clientErrorHandler,
    http: { requireHostHeader: false },
    // Route schemas compile on each route's first request (http/schema-compilers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  });
  app.setValidatorCompiler(validatorCompilers().lazy);

  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema as RouteInfo['schema'] });
  });
  // Background job failures go to the server's log from now on.
  services.jobs.useLogger(app.log);
  // Background work over stored contents waits for a pause in requests (core/foreground.ts).
  app.addHook('onRequest', (_request, _reply, done) => {
    services.foreground.started();
    done();
  });
  registerErrorHandler(app);
  // Before every route and plugin, so that every answer inherits it.
  registerBaselineHeaders(app);
  registerHostCheck(app);
  registerInputGuard(app);
  // /metrics (Prometheus text, not /api/v4) is added before the document starts collecting routes.
  services.metrics.register(app, config.metricsToken);
  // Before the guard and every /api/v4 route: see registerOpenApi.
  await registerOpenApi(app);
  registerAuthGuard(app, services.verifier, services.dpop);
  if (config.storage.kind === 'local' && config.storage.fsync === false) {
    app.log.warn('CIRRUS_BENCHMARK_NO_FSYNC: stored files are not flushed to the disk; a crash may lose them (for benchmarks only)');
  }
  if (config.recordingOff) {
    app.log.warn('CIRRUS_BENCHMARK_RECORDING_OFF: no audit rows and no activity are recorded (for benchmarks only)');
  } else {
    // Before every route: the audited routes get their hook as they are added (audit/capture.ts).
    registerAuditCapture(app, services.audit, (err) => services.jobs.outcome('audit_capture', err));
  }
  registerNoStore(app);
  registerCors(app, { registered: () => services.oauth.clients.registeredOrigins(), ofClient: (id) => services.oauth.clients.originsOf(id) });
  // JSON only (issue 19): Fastify parses text/plain by default, and no form
  // parser is registered app-wide. Forms, multipart and text/plain are what
  // another site can send without a preflight; a route whose standard defines
  // a form body (the OAuth token, revocation and introspection endpoints)
  // installs its own parser in its scope. Any other media type no route
  // accepts is 415/40001 (api-contract §1, docs/security.md).
  // Before every route: the plugin adds its hook to the routes added after it.
  await registerCompression(app);
  app.removeContentTypeParser('text/plain');
  // JSON bodies are checked for depth and size in values before they are parsed (http/json-body.ts).
  registerJsonParser(app, JSON_BODY_LIMIT);

  siteRoutes(
    app,
    services.settings,
    services.accounts,
    services.mailer,
    async () => (await services.identity.providers.enabledOidc()).map((p) => ({ id: p.id, name: p.name, icon: p.icon })),
    async () => (await services.identity.providers.enabledLdap()).length > 0,
  );
  mailRoutes(app, services.outbox, async () => (await services.settings.current()).site_name, services.clock);
  resetRoutes(app, services.passwordReset);
  const userSessions = new UserSessions(new UserSessionsRepository(services.db), services.revocation, services.verifier, services.clock);
  userSessions.onNewDevice((d) => services.notifications.service.notify(d.userId, 'new_device_sign_in', { browser: d.browser, os: d.os, ip: d.ip, link: '/settings/security' }));
  sessionRoutes(app, services.sessions, services.devices, (token, request) => userSessions.recordSignIn(token, request.headers['user-agent'], request.ip));
  userSessionRoutes(app, userSessions);
  accountRoutes(app, services.accounts, services.twoFactor, services.oauth.grantLister, services.notices, services.emailFlows);
  emailRoutes(app, services.emailFlows);
  activationRoutes(app, (token) => services.emailFlows.activate(token), services.sessions, services.devices, (token, request) => userSessions.recordSignIn(token, request.headers['user-agent'], request.ip));
  passkeyRoutes(app, services.passkeys, services.accounts, services.twoFactor);
  passkeySignInRoutes(app, services.passkeys, services.accounts, services.sessions, services.devices, (token, request) => userSessions.recordSignIn(token, request.headers['user-agent'], request.ip));
  await identityModuleRoutes(app, services.identity, {
    sessions: services.sessions,
    accounts: services.accounts,
    revocation: services.revocation,
    baseUrl: config.baseUrl,
    recordSignIn: (token, request) => userSessions.recordSignIn(token, request.headers['user-agent'], request.ip),
  });
  await avatarRoutes(app, services.avatars);
  adminAccountRoutes(app, services.accounts, (ids) => services.report.activity(ids));
  groupRoutes(app, services.groups);
  adminSummaryRoutes(app, services.summary);
  // The map tile origin (when set) may serve the pages' images: the Photos map (site/map-tiles.ts).
  const sendPage = indexPageSender(config, async () => mapTileOrigins((await services.settings.current()).map_tile_url));
  await oauthRoutes(app, services.oauth, sendPage);
  await filesRoutes(app, services.files, config.baseUrl);
  feedModuleRoutes(app, services.feed);
  searchModuleRoutes(app, services.search);
  mediaModuleRoutes(app, services.media);
  sharingRoutes(app, services.sharing);
  teamModuleRoutes(app, services.teams);
  await sharesRoutes(app, services.shares, sendPage);
  webdavRoutes(app, services.dav);
  syncRoutes(app, services.sync, services.avatars);
  healthRoutes(app, services.health);
  auditRoutes(app, services.audit);
  notificationModuleRoutes(app, services.notifications);
  activityModuleRoutes(app, services.activity);
  await webApp(app, config, sendPage);

  app.addHook('onClose', async () => {
    await services.close();
  });
  return { app, services, routes };
}
