// Login Flow v2 and v1 over HTTP (api-contract §14). The clients' doors under
// /index.php/login/ (Nextcloud's paths, not in the OpenAPI document), and the
// three calls the web app's grant page makes under /api/v4/sync/login-flows/
// (first-party sign-ins only: an application token cannot hand out app passwords).
//
// The pages /index.php/login/v2/flow/<id> and /index.php/login/flow/<id> are
// the web app's (served by the single-page fallback, web.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest, notFound } from '../core/errors.js';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { DateTime, Envelope, View, errors } from '../http/contract.js';
import type { LoginFlows } from './login-flows.js';

const FLOW_ID = '^[A-Za-z0-9]{1,64}$';
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: FLOW_ID }) });
const FIRST_PARTY = { auth: 'required' as const, firstPartyOnly: true };
const TOKEN_MAX = 200;
const V1_COOKIE = 'cirrus_login_flow';
const V1_PATH = '/index.php/login/flow';

const FlowSchema = View({ id: Type.String(), client_name: Type.String({ description: "Made from the client's User-Agent" }), expires_at: DateTime }, { title: 'LoginFlow' });
const GrantSchema = View({ account_id: Type.String({ description: 'The WebDAV account made for the client' }), name: Type.String() }, { title: 'LoginFlowGrant' });

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** nc://login/server:<base>&user:<login>&password:<password>, values percent-encoded (a base URL keeps its ':' and '/'). */
export function ncLoginUrl(base: string, loginName: string, password: string): string {
  const server = base.replace(/[&%\s]/g, (c) => encodeURIComponent(c));
  return `nc://login/server:${server}&user:${encodeURIComponent(loginName)}&password:${encodeURIComponent(password)}`;
}

export function loginFlowRoutes(app: FastifyInstance, flows: LoginFlows, baseUrl: string): void {
  const secure = baseUrl.startsWith('https:');
  const hidden = { config: { auth: 'none' as const, issuesCredentials: true }, schema: { hide: true } };

  // v2 start: no credentials; the token is the client's secret, the login URL the person's page.
  app.post('/index.php/login/v2', hidden, async (request: FastifyRequest, reply) => {
    const flow = await flows.start(request.headers['user-agent'], request.ip);
    return reply.send({ poll: { token: flow.token, endpoint: `${baseUrl}/index.php/login/v2/poll` }, login: `${baseUrl}/index.php/login/v2/flow/${flow.id}` });
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // v2 poll: 404 until granted, then the credentials once, then 404 again.
    scope.post('/index.php/login/v2/poll', hidden, async (request: FastifyRequest, reply) => {
      const body = request.body;
      const token = body && typeof body === 'object' ? (body as Record<string, unknown>).token : undefined;
      if (typeof token !== 'string' || token.length === 0) throw badRequest('token: required (form field)');
      if (token.length > TOKEN_MAX) throw notFound('No such login flow, or not granted yet');
      const got = await flows.poll(token, request.ip);
      if (!got) throw notFound('No such login flow, or not granted yet');
      return reply.send({ server: baseUrl, loginName: got.loginName, appPassword: got.appPassword });
    });
  });

  // v1 start (the mobile apps' web view): a flow whose poll token stays in an
  // HttpOnly cookie of this browser, then the grant page.
  app.get(V1_PATH, hidden, async (request, reply) => {
    if (String(request.headers['ocs-apirequest'] ?? '').toLowerCase() !== 'true') throw badRequest('OCS-APIREQUEST: true is required');
    const flow = await flows.start(request.headers['user-agent'], request.ip);
    return reply
      .code(302)
      .header('set-cookie', `${V1_COOKIE}_${flow.id}=${flow.token}; Path=${V1_PATH}/${flow.id}; HttpOnly; SameSite=Lax; Max-Age=1200${secure ? '; Secure' : ''}`)
      .header('location', `${V1_PATH}/${flow.id}`)
      .send();
  });

  // v1 end: after the grant the page comes here; the cookie's token opens the password once.
  app.get<{ Params: { id: string } }>(`${V1_PATH}/:id/done`, { ...hidden, schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const id = request.params.id;
    const token = cookieValue(request.headers.cookie, `${V1_COOKIE}_${id}`);
    const got = token && token.length <= TOKEN_MAX ? await flows.poll(token, request.ip) : undefined;
    const clear = `${V1_COOKIE}_${id}=; Path=${V1_PATH}/${id}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
    // Nothing to hand over (not granted, already used, another browser): back to the page, which says so.
    if (!got) return reply.code(302).header('location', `${V1_PATH}/${id}`).send();
    return reply.code(302).header('set-cookie', clear).header('location', ncLoginUrl(baseUrl, got.loginName, got.appPassword)).send();
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/sync/login-flows/:id',
    { config: FIRST_PARTY, schema: { description: 'A sync client\'s sign-in request (Login Flow v2/v1) that is waiting for the person: the client it names.', params: IdParams, response: { 200: Envelope(FlowSchema), ...errors(404) } } },
    async (request) => {
      requireAuth(request);
      return ok(await flows.view(request.params.id));
    },
  );
  r.post(
    '/api/v4/sync/login-flows/:id/grant',
    {
      config: { ...FIRST_PARTY, issuesCredentials: true },
      schema: { description: 'Grants a sync client\'s sign-in request: a WebDAV account named after the client is made, and its password goes to the client once.', params: IdParams, response: { 200: Envelope(GrantSchema), ...errors(404, 409) } },
    },
    async (request) => ok(await flows.grant(requireAuth(request).user.id, request.params.id)),
  );
  r.delete(
    '/api/v4/sync/login-flows/:id',
    { config: FIRST_PARTY, schema: { description: 'Declines a sync client\'s sign-in request: the flow ends.', params: IdParams, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      requireAuth(request);
      await flows.cancel(request.params.id);
      return ok(null);
    },
  );
}
