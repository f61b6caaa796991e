// The client-authenticated endpoints: token, revocation, introspection. They
// live in a Fastify scope of their own with the standard's error format
// (RFC 6749 §5.2), form bodies only, no caching, and no repeated parameters.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toDomainError } from '../../http/error-handler.js';
import { toOAuthAnswer } from '../../http/oauth-errors.js';
import { OAuthError } from '../../core/errors.js';
import { OAUTH_PATHS } from '../paths.js';
import { paramsFromQuery, repeatedParam, type RequestParams } from '../params.js';
import type { ClientAuthenticator } from './client-auth.js';
import type { TokenInspection } from './inspection.js';
import type { Form, GrantHandler } from './types.js';

const FORM_BODY_LIMIT = 64 * 1024;

export interface TokenEndpointDeps {
  clientAuth: ClientAuthenticator;
  grants: Readonly<Record<string, GrantHandler>>;
  inspection: TokenInspection;
}

/** RFC 6749 §3.2: no parameter may be sent twice. */
function singleValued(params: RequestParams | undefined): Form {
  const all = params ?? new Map<string, string[]>();
  const repeated = repeatedParam(all);
  if (repeated !== undefined) throw new OAuthError('invalid_request', `${repeated}: must not be sent more than once`);
  return new Map([...all].map(([name, values]) => [name, values[0]!]));
}

function requiredToken(form: Form): string {
  const token = form.get('token');
  if (token === undefined) throw new OAuthError('invalid_request', 'token: is required');
  return token;
}

export async function tokenEndpoints(app: FastifyInstance, deps: TokenEndpointDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, paramsFromQuery(body as string));
    });
    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    });
    scope.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const e = err instanceof OAuthError ? err : toDomainError(err);
      const answer = toOAuthAnswer(e);
      if (answer.status >= 500) request.log.error({ err: e instanceof OAuthError ? e.description : (e.detail ?? e.message) }, 'token endpoint failed');
      else request.log.info({ error: answer.body.error, status: answer.status }, answer.body.error_description);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });

    // CORS (http/cors.ts): a browser app may exchange and revoke its own tokens from the
    // origins of its redirect URIs; introspection is for resource servers, never a page.
    const route = { config: { auth: 'none' as const, cors: 'client' as const } };
    const introspection = { config: { auth: 'none' as const, cors: false as const } };
    const authenticate = (request: FastifyRequest, form: Form) => deps.clientAuth.authenticate(request.headers.authorization, form, request.ip);

    scope.post(OAUTH_PATHS.token, route, async (request) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const grantType = form.get('grant_type');
      if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type: is required');
      const grant = Object.hasOwn(deps.grants, grantType) ? deps.grants[grantType] : undefined;
      if (!grant) throw new OAuthError('unsupported_grant_type', `grant_type: ${grantType.slice(0, 64)} is not supported`);
      return grant(await authenticate(request, form), form);
    });

    scope.post(OAUTH_PATHS.revoke, route, async (request, reply) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const client = await authenticate(request, form);
      await deps.inspection.revoke(client, requiredToken(form));
      return reply.code(200).send();
    });

    scope.post(OAUTH_PATHS.introspect, introspection, async (request) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const client = await authenticate(request, form);
      return deps.inspection.introspect(client, requiredToken(form));
    });
  });
}
