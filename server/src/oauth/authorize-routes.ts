// The authorization page route and the first-party APIs behind it: app info,
// the consent decision, and a user's revocation of an app.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, Nullable, View, errors } from '../http/contract.js';
import { requireAuth } from '../http/auth.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import { PAGE_HEADERS, type PageSender } from '../http/pages.js';
import { checkAuthorizationRequest } from './authorization-request.js';
import { MAX_CLIENT_ID_LENGTH, type ClientService } from './clients.js';
import type { ConsentService } from './consent.js';
import { paramsFromObject, paramsFromQuery, type RequestParams } from './params.js';
import { OAUTH_PATHS } from './paths.js';
import type { PushedRequests } from './par.js';

export interface AuthorizeRouteDeps {
  clients: ClientService;
  pushed: PushedRequests;
  consent: ConsentService;
  issuer: string;
  sendPage: PageSender;
}

const ClientIdParam = Type.Object({ client_id: Type.String({ minLength: 1, maxLength: MAX_CLIENT_ID_LENGTH }) });
// Loose on purpose: the rules (and their redirectable errors) are checkAuthorizationRequest's.
const loose = Type.Optional(Type.String({ maxLength: 16384 }));
// RFC 6749 §3.1: the authorization server ignores unrecognized request
// parameters; the page forwards the authorize query as it is, so this body
// stays open (the one JSON body that accepts unknown fields).
const ConsentBody = Type.Object({
  response_type: loose,
  client_id: loose,
  redirect_uri: loose,
  scope: loose,
  state: loose,
  code_challenge: loose,
  code_challenge_method: loose,
  nonce: loose,
  prompt: loose,
  response_mode: loose,
  request_uri: loose,
  dpop_jkt: loose,
  approve: Type.Optional(Type.Boolean()),
}, { additionalProperties: true });

export const AppInfoSchema = View(
  {
    id: Type.String(),
    name: Type.String(),
    icon: Type.String(),
    homepage_url: Nullable('string'),
    description: Type.String(),
    scopes: Type.Array(Type.String()),
    consented_scopes: Type.Array(Type.String(), { description: '[] when anonymous' }),
  },
  { title: 'OAuthAppInfo' },
);
const ConsentResultSchema = View(
  {
    redirect_uri: Type.String({ description: 'where to navigate: the code, or an error, in its query' }),
    code: Type.Optional(Type.String()),
    state: Type.Optional(Nullable('string')),
  },
  { title: 'ConsentResult' },
);

const PushedRequestSchema = View(
  { params: Type.Record(Type.String(), Type.String(), { description: 'the pushed authorization request parameters' }) },
  { title: 'PushedAuthorizationRequest' },
);

export function authorizeRoutes(app: FastifyInstance, deps: AuthorizeRouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const resolvePushed = (clientId: string, requestUri: string) => deps.pushed.resolve(clientId, requestUri);
  const check = (params: RequestParams) => checkAuthorizationRequest(params, (id) => deps.clients.findEnabled(id), deps.issuer, { resolvePushed });

  r.get(OAUTH_PATHS.authorize, { config: { auth: 'none' } }, async (request, reply) => {
    const q = request.url.indexOf('?');
    const result = await check(paramsFromQuery(q < 0 ? '' : request.url.slice(q + 1)));
    if (result.kind === 'invalid') return deps.sendPage(reply, 400);
    if (result.kind === 'error') return reply.code(303).headers(PAGE_HEADERS).header('Location', result.location).send();
    return deps.sendPage(reply, 200);
  });

  // For the consent page (first-party); an application learns nothing here with its own token.
  r.get(OAUTH_PATHS.app, { config: { auth: 'optional', firstPartyOnly: true }, schema: { params: ClientIdParam, response: { 200: Envelope(AppInfoSchema), ...errors(404) } } }, async (request) => {
    return ok(await deps.consent.appInfo(request.params.client_id, request.auth?.user.id ?? null));
  });

  r.post(
    OAUTH_PATHS.consent,
    {
      config: { auth: 'required', firstPartyOnly: true, issuesCredentials: true },
      schema: {
        description: 'The consent decision for an authorization request (the authorize parameters as JSON, plus approve).',
        body: ConsentBody,
        response: { 200: Envelope(ConsentResultSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const result = await check(paramsFromObject(request.body));
      if (result.kind === 'invalid') throw new DomainError(ErrorCode.ParamError, result.message);
      if (result.kind === 'error') return ok({ redirect_uri: result.location });
      // auth_time (OIDC Core §2) is when the user signed in: the start of their session family.
      // RFC 9126 §4: a request_uri serves one decision.
      const { pushed, client } = result.request;
      if (pushed !== null && !(await deps.pushed.consume(client.id, pushed))) throw new DomainError(ErrorCode.ParamError, 'request_uri: already used or expired');
      const authTime = await deps.consent.authTime(auth.sid);
      return ok(await deps.consent.decide(auth.user.id, authTime, result.request, request.body.approve ?? true));
    },
  );

  r.post(
    OAUTH_PATHS.pushedRequest,
    {
      config: { auth: 'none' },
      schema: {
        description: 'The parameters a pushed request_uri stands for (RFC 9126 §4), for the authorize page to show; the request_uri stays unused.',
        body: Body({ client_id: Type.String({ minLength: 1, maxLength: MAX_CLIENT_ID_LENGTH }), request_uri: Type.String({ minLength: 1, maxLength: 256 }) }),
        response: { 200: Envelope(PushedRequestSchema), ...errors(404) },
      },
    },
    async (request) => {
      const params = await deps.pushed.resolve(request.body.client_id, request.body.request_uri);
      if (!params) throw new DomainError(ErrorCode.NotFound, 'request_uri: unknown, expired, already used, or pushed by another application');
      return ok({ params: Object.fromEntries([...params].map(([name, values]) => [name, values[0] ?? ''])) });
    },
  );

  r.delete(
    OAUTH_PATHS.grant,
    { config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] }, schema: { params: ClientIdParam, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await deps.consent.revokeGrant(requireAuth(request).user.id, request.params.client_id);
      return ok(null);
    },
  );
}
