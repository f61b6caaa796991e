// The client-authenticated endpoints: token, revocation, introspection. They
// live in a Fastify scope of their own with the standard's error format
// (RFC 6749 §5.2), form bodies only, no caching, and no repeated parameters.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { StringEnum, View } from '../../http/contract.js';
import { toDomainError } from '../../http/error-handler.js';
import { toOAuthAnswer } from '../../http/oauth-errors.js';
import { OAuthError } from '../../core/errors.js';
import { OAUTH_PATHS } from '../paths.js';
import { paramsFromQuery, repeatedParam, type RequestParams } from '../params.js';
import type { ClientAuthenticator } from './client-auth.js';
import type { TokenInspection } from './inspection.js';
import type { Form, GrantHandler } from './types.js';
import type { Client } from '../clients.js';
import type { DeviceAuthorizationResponse } from '../device/service.js';
import type { DpopService } from '../dpop/service.js';

const FORM_BODY_LIMIT = 64 * 1024;

const OAUTH_ERRORS = [
  'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope',
  'server_error', 'temporarily_unavailable', 'authorization_pending', 'slow_down', 'access_denied', 'expired_token',
  'unsupported_response_type', 'request_not_supported', 'invalid_dpop_proof', 'use_dpop_nonce',
] as const;

/** RFC 6749 §5.2 (RFC 7009 §2.2.1 and RFC 7662 §2.3 use the same body). */
const OAuthErrorBody = View({ error: StringEnum(OAUTH_ERRORS), error_description: Type.String() }, { title: 'OAuthErrorBody' });
const oauthError = (description: string) => View(OAuthErrorBody.properties, { title: 'OAuthErrorBody', description });
const oauthErrors = {
  400: oauthError('invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449)'),
  401: oauthError('invalid_client (WWW-Authenticate: Basic when Basic was used)'),
  429: oauthError('temporarily_unavailable: client authentication throttled; Retry-After'),
  500: oauthError('server_error'),
};

/** RFC 6749 §5.1 (+ refresh_token_expires_in, id_token of OIDC Core §3.1.3.3). */
const TokenResponseSchema = View(
  {
    access_token: Type.String(),
    token_type: StringEnum(['Bearer', 'DPoP'], { description: 'DPoP when a DPoP proof was sent: the access token is bound to its key (cnf.jkt, RFC 9449 §5)' }),
    expires_in: Type.Integer({ description: 'seconds' }),
    scope: Type.String(),
    refresh_token: Type.Optional(Type.String({ description: 'only with offline_access' })),
    refresh_token_expires_in: Type.Optional(Type.Integer({ description: 'seconds; only with offline_access' })),
    id_token: Type.Optional(Type.String({ description: 'only with openid' })),
  },
  { title: 'OAuthTokenResponse', description: 'RFC 6749 §5.1 access token response' },
);

/** RFC 8628 §3.2. */
const DeviceAuthorizationSchema = View(
  {
    device_code: Type.String(),
    user_code: Type.String({ description: '8 letters shown as XXXX-XXXX' }),
    verification_uri: Type.String({ description: '<base>/device' }),
    verification_uri_complete: Type.String({ description: 'verification_uri with the user code filled in' }),
    expires_in: Type.Integer({ description: 'seconds (600)' }),
    interval: Type.Integer({ description: 'seconds between polls (5)' }),
  },
  { title: 'OAuthDeviceAuthorization', description: 'RFC 8628 §3.2 device authorization response' },
);

/** RFC 9126 §2.2. */
const ParResponseSchema = View(
  {
    request_uri: Type.String({ description: 'urn:ietf:params:oauth:request_uri:…; for /session/authorize with client_id, once' }),
    expires_in: Type.Integer({ description: 'seconds (60)' }),
  },
  { title: 'OAuthPushedAuthorizationResponse', description: 'RFC 9126 §2.2 pushed authorization response' },
);

/** RFC 7662 §2.2: inactive tokens say only `active: false`. */
const IntrospectionSchema = Type.Object(
  {
    active: Type.Boolean(),
    client_id: Type.Optional(Type.String()),
    sub: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    nbf: Type.Optional(Type.Integer()),
    iss: Type.Optional(Type.String()),
    jti: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.String()),
    cnf: Type.Optional(Type.Object({ jkt: Type.String() }, { additionalProperties: false, description: 'the DPoP key a bound token needs (RFC 9449 §6.2)' })),
  },
  { additionalProperties: false, title: 'OAuthIntrospection', description: 'RFC 7662 §2.2 introspection response' },
);

/** The form body, documented (parsed by this scope's own parser; unknown parameters are ignored, RFC 6749 §3.2). */
function formBody(properties: Record<string, unknown>, required: string[]) {
  return { type: 'object', properties, required };
}
const opt = (description: string) => Type.Optional(Type.String({ description }));
const clientAuthFields = {
  client_id: opt('client_secret_post / public clients (or HTTP Basic)'),
  client_secret: opt('client_secret_post (or HTTP Basic)'),
};

export interface TokenEndpointDeps {
  clientAuth: ClientAuthenticator;
  grants: Readonly<Record<string, GrantHandler>>;
  inspection: TokenInspection;
  /** RFC 8628 §3.1: the device authorization request. */
  startDevice(client: Client, scope: string | undefined): Promise<DeviceAuthorizationResponse>;
  /** RFC 9126 §2: a pushed authorization request. */
  push(client: Client, form: Form): Promise<{ request_uri: string; expires_in: number }>;
  /** RFC 9449: proofs of token requests. */
  dpop: DpopService;
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
    const config = { auth: 'none' as const, ownErrors: true, cors: 'client' as const };
    const tokenRoute = {
      config,
      schema: {
        description: 'RFC 6749 §3.2 token endpoint: authorization_code (PKCE, RFC 7636), refresh_token and device_code (RFC 8628) grants, as each app\'s grant_types allow. Form body; answers carry Cache-Control: no-store. An optional DPoP header (RFC 9449 §5) binds the tokens to its key.',
        response: { 200: TokenResponseSchema, ...oauthErrors },
        // Documentation only (http/openapi.ts shows it as the form body): this scope parses and checks forms itself.
        'x-form': formBody(
          {
            grant_type: Type.String({ description: 'authorization_code | refresh_token | urn:ietf:params:oauth:grant-type:device_code' }),
            code: opt('authorization_code'),
            redirect_uri: opt('authorization_code: as in the authorization request'),
            code_verifier: opt('authorization_code: RFC 7636'),
            refresh_token: opt('refresh_token'),
            device_code: opt('urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4)'),
            scope: opt('refresh_token: a subset of the granted scopes'),
            ...clientAuthFields,
          },
          ['grant_type'],
        ),
      },
    };
    const revokeRoute = {
      config,
      schema: {
        description: 'RFC 7009 token revocation: 200 with an empty body, also for unknown tokens.',
        response: { 200: Type.Null({ description: 'empty body' }), ...oauthErrors },
        'x-form': formBody({ token: Type.String(), token_type_hint: opt('ignored: tokens are self-describing'), ...clientAuthFields }, ['token']),
      },
    };
    const introspectRoute = {
      config: { auth: 'none' as const, ownErrors: true, cors: false as const },
      schema: {
        description: 'RFC 7662 token introspection, for tokens issued to the authenticated client.',
        response: { 200: IntrospectionSchema, ...oauthErrors },
        'x-form': formBody({ token: Type.String(), token_type_hint: opt('ignored'), ...clientAuthFields }, ['token']),
      },
    };
    const authenticate = (request: FastifyRequest, form: Form) => deps.clientAuth.authenticate(request.headers.authorization, form, request.ip);

    scope.post(OAUTH_PATHS.token, tokenRoute, async (request, reply) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const grantType = form.get('grant_type');
      if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type: is required');
      const grant = Object.hasOwn(deps.grants, grantType) ? deps.grants[grantType] : undefined;
      if (!grant) throw new OAuthError('unsupported_grant_type', `grant_type: ${grantType.slice(0, 64)} is not supported`);
      const client = await authenticate(request, form);
      // RFC 6749 §5.2: a client not registered for this grant type.
      if (!(client.grantTypes as readonly string[]).includes(grantType)) throw new OAuthError('unauthorized_client', `This application may not use the ${grantType.slice(0, 64)} grant`);
      // RFC 9449 §5: a proof binds what is issued to its key; an app set to require DPoP sends one every time.
      const proof = await deps.dpop.tokenRequest(request.headers.dpop);
      if (proof === null && client.requireDpop) throw new OAuthError('invalid_dpop_proof', 'This application must send a DPoP proof with every token request (RFC 9449)');
      const nonce = deps.dpop.nonceHeader();
      if (nonce !== undefined) reply.header('DPoP-Nonce', nonce);
      return grant(client, form, { jkt: proof?.jkt ?? null });
    });

    const deviceRoute = {
      config: { auth: 'none' as const, ownErrors: true, cors: false as const },
      schema: {
        description: 'RFC 8628 §3.1 device authorization request (client authentication as at the token endpoint; public clients send client_id).',
        response: { 200: DeviceAuthorizationSchema, ...oauthErrors },
        'x-form': formBody({ scope: Type.String({ description: 'space-separated scopes' }), ...clientAuthFields }, ['scope']),
      },
    };
    scope.post(OAUTH_PATHS.deviceAuthorization, deviceRoute, async (request) => {
      const form = singleValued(request.body as RequestParams | undefined);
      return deps.startDevice(await authenticate(request, form), form.get('scope'));
    });

    const parRoute = {
      config: { auth: 'none' as const, ownErrors: true, cors: false as const },
      schema: {
        description: 'RFC 9126 pushed authorization request: the authorization request parameters, with client authentication; answers 201. An optional DPoP header (RFC 9449 §10.1) binds the authorization code to its key.',
        response: { 201: ParResponseSchema, ...oauthErrors },
        'x-form': formBody(
          {
            response_type: Type.String(),
            redirect_uri: Type.String(),
            scope: Type.String(),
            state: opt('returned unchanged'),
            code_challenge: opt('RFC 7636'),
            code_challenge_method: opt('S256'),
            nonce: opt('OIDC'),
            prompt: opt('consent | none'),
            dpop_jkt: opt('RFC 9449 §10: the JWK thumbprint of the DPoP key the code exchange must prove; a DPoP header on this request binds the same way (both: they must match)'),
            ...clientAuthFields,
          },
          ['response_type', 'redirect_uri', 'scope'],
        ),
      },
    };
    scope.post(OAUTH_PATHS.par, parRoute, async (request, reply) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const client = await authenticate(request, form);
      // RFC 9449 §10.1: a proof with the pushed request binds the code to its key, as dpop_jkt does; both must then agree.
      const proof = await deps.dpop.tokenRequest(request.headers.dpop, 'par');
      if (proof !== null) {
        const named = form.get('dpop_jkt');
        if (named !== undefined && named !== proof.jkt) throw new OAuthError('invalid_request', 'dpop_jkt: does not match the key of the DPoP proof');
        form.set('dpop_jkt', proof.jkt);
      }
      const nonce = deps.dpop.nonceHeader();
      if (nonce !== undefined) reply.header('DPoP-Nonce', nonce);
      return reply.code(201).send(await deps.push(client, form));
    });

    scope.post(OAUTH_PATHS.revoke, revokeRoute, async (request, reply) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const client = await authenticate(request, form);
      await deps.inspection.revoke(client, requiredToken(form));
      return reply.code(200).send();
    });

    scope.post(OAUTH_PATHS.introspect, introspectRoute, async (request) => {
      const form = singleValued(request.body as RequestParams | undefined);
      const client = await authenticate(request, form);
      return deps.inspection.introspect(client, requiredToken(form));
    });
  });
}
