// The browser's OpenID Connect round trip (api-contract §15): the start, the
// provider's callback, the exchange of the one-time code for tokens, and the
// provider's back-channel logout. The start and the callback are browser
// navigations: a refusal there sends the browser to the web app's page with
// the reason (a client that does not ask for HTML gets the envelope); no
// refusal ever sets a session.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError, secondFactorRequired } from '../core/errors.js';
import { ok } from '../http/envelope.js';
import { Body, Envelope, NoBody, View, errors } from '../http/contract.js';
import { toDomainError } from '../http/error-handler.js';
import { toUserView, UserViewSchema } from '../accounts/views.js';
import type { AccountService } from '../accounts/service.js';
import type { SessionService } from '../sessions/service.js';
import { TokenPairSchema, type SignInRecorder } from '../sessions/routes.js';
import type { SsoFlow } from './oidc/flow.js';
import { ProviderIdParams } from './schemas.js';

/** The browser cookie the state is bound to; only the callback path ever receives it. */
export const SSO_COOKIE = 'cirrus_sso';
export const SSO_PATH = '/api/v4/session/sso';
/** The web app's page that exchanges the code (or shows the refusal). */
export const SSO_PAGE = '/session/sso';

const Code = Type.String({ minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });
const SignedIn = View({ user: UserViewSchema, token: TokenPairSchema }, { title: 'SsoSignedIn' });

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function ssoCookie(value: string, secure: boolean, maxAge = 600): string {
  // Lax: the provider sends the browser back with a top-level GET from its own site.
  return `${SSO_COOKIE}=${value}; Path=${SSO_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

const wantsHtml = (request: FastifyRequest) => /text\/html/.test(String(request.headers.accept ?? ''));

export interface SsoRouteDeps {
  flow: SsoFlow;
  sessions: SessionService;
  accounts: AccountService;
  baseUrl: string;
  recordSignIn?: SignInRecorder;
}

export function ssoRoutes(app: FastifyInstance, deps: SsoRouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const secure = deps.baseUrl.startsWith('https:');

  /** A refusal during a browser navigation: the web app shows it; an API client gets the envelope. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const e = toDomainError(err);
    if (!(err instanceof DomainError)) throw err;
    request.log.info({ code: e.code, detail: e.detail }, `sso refused: ${e.message}`);
    if (!wantsHtml(request)) throw e;
    const to = new URL(SSO_PAGE, deps.baseUrl);
    to.searchParams.set('error', e.message);
    return reply.code(302).header('location', to.toString()).header('cache-control', 'no-store').send();
  };

  r.get(
    `${SSO_PATH}/:id`,
    {
      config: { auth: 'none' },
      schema: {
        description:
          'Starts "Sign in with <provider>": 302 to the provider (authorization code with PKCE S256, state and nonce) and a cookie that binds the state to this browser. ' +
          '`return_to` is a path on this site (anything else is refused).',
        params: ProviderIdParams,
        querystring: Type.Object({ return_to: Type.Optional(Type.String({ maxLength: 2048 })) }),
        response: { 302: NoBody('to the provider'), ...errors(404) },
      },
    },
    async (request, reply) => {
      try {
        const started = await deps.flow.start(request.params.id, {
          returnTo: request.query.return_to ?? '/',
          linkUserId: null,
          browser: readCookie(request.headers.cookie, SSO_COOKIE),
        });
        return reply.code(302).header('location', started.url).header('set-cookie', ssoCookie(started.browser, secure)).header('cache-control', 'no-store').send();
      } catch (err) {
        return refuse(request, reply, err);
      }
    },
  );

  r.get(
    `${SSO_PATH}/:id/callback`,
    {
      config: { auth: 'none' },
      schema: {
        description:
          'Where the provider sends the browser back. Checks the single-use state and its browser, then the code exchange and the id_token ' +
          '(iss, aud, exp, nonce, signature against the JWKS with an algorithm allow-list), and answers 302 to the web app with a one-time code (60 s) ' +
          'for POST /session/sso/exchange. A refusal sets no session.',
        params: ProviderIdParams,
        response: { 302: NoBody('to the web app'), ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const q = request.url.indexOf('?');
      const query = new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
      try {
        const result = await deps.flow.callback(request.params.id, query, readCookie(request.headers.cookie, SSO_COOKIE));
        const to = new URL(SSO_PAGE, deps.baseUrl);
        if (result.kind === 'linked') to.searchParams.set('linked', '1');
        else to.searchParams.set('code', result.code);
        to.searchParams.set('return_to', result.returnTo);
        return reply.code(302).header('location', to.toString()).header('cache-control', 'no-store').send();
      } catch (err) {
        return refuse(request, reply, err);
      }
    },
  );

  r.post(
    `${SSO_PATH}/exchange`,
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description: 'Turns the callback\'s one-time code (60 s, once) into {user, token} like password sign-in; code 203 when the account has two-step verification.',
        body: Body({ code: Code }),
        response: { 200: Envelope(SignedIn), ...errors(401, 403) },
      },
    },
    async (request) => {
      const { userId, upstream } = await deps.flow.exchange(request.body.code);
      request.signInMethod = { method: 'oidc', provider_id: upstream.providerId };
      const result = await deps.sessions.signInProven(await deps.accounts.get(userId));
      if (result.kind === 'second_factor') throw secondFactorRequired(result.sessionId);
      if (result.familyId) await deps.flow.recordSession(result.familyId, userId, upstream);
      await deps.recordSignIn?.(result.token.access_token, request);
      return ok({ user: toUserView(result.user), token: result.token });
    },
  );

  r.post(
    `${SSO_PATH}/end-session`,
    {
      config: { auth: 'required', firstPartyOnly: true },
      schema: {
        description:
          'Where to send the browser to end the provider\'s session too, for the caller\'s session when it began at a provider with an end_session_endpoint; ' +
          'null otherwise. The web app asks before DELETE /session/token.',
        response: { 200: Envelope(View({ url: Type.Union([Type.String(), Type.Null()]) }, { title: 'UpstreamEndSession' })) },
      },
    },
    async (request) => {
      const sid = request.auth?.sid ?? null;
      const url = sid === null ? null : await deps.flow.endSessionUrl(sid, new URL('/', deps.baseUrl).toString());
      return ok({ url });
    },
  );
}

const BackchannelError = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { additionalProperties: false, title: 'BackchannelLogoutError', description: 'Back-Channel Logout 1.0 §2.8: invalid_request (or server_error)' },
);

/** Back-Channel Logout 1.0 §2.5-2.8: a form POST with logout_token; 200 with no body, or 400 with an error JSON; never cached. */
export async function backchannelRoutes(app: FastifyInstance, deps: { flow: SsoFlow; revokeFamilies: (ids: string[]) => Promise<void> }): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    scope.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const e = toDomainError(err);
      const status = e.kind === 'internal' ? 500 : e.kind === 'not_found' ? 404 : 400;
      request.log.info({ status, detail: e.detail }, `back-channel logout refused: ${e.message}`);
      return reply.code(status).header('cache-control', 'no-store').send({ error: status === 500 ? 'server_error' : 'invalid_request', error_description: status === 500 ? 'internal error' : e.message });
    });
    scope.post(
      `${SSO_PATH}/:id/backchannel-logout`,
      {
        config: { auth: 'none', ownErrors: true },
        schema: {
          description: 'OpenID Connect Back-Channel Logout 1.0: the provider posts a logout_token (form body); the Cirrus sessions that came from that provider session or subject end.',
          params: ProviderIdParams,
          // Documented only: the form is parsed above (Back-Channel Logout 1.0 §2.5).
          'x-form': Type.Object({ logout_token: Type.String({ description: 'the logout token (a signed JWT)' }) }, { additionalProperties: false }),
          response: { 200: NoBody('empty body'), 400: BackchannelError, 500: BackchannelError },
        },
      },
      async (request, reply) => {
        const form = request.body as URLSearchParams | undefined;
        const tokens = form instanceof URLSearchParams ? form.getAll('logout_token') : [];
        if (tokens.length !== 1 || tokens[0]!.length > 16384) throw new DomainError(40001, 'logout_token: exactly one is required');
        const families = await deps.flow.backchannelLogout(request.params.id, tokens[0]!);
        await deps.revokeFamilies(families);
        return reply.code(200).header('cache-control', 'no-store').send();
      },
    );
  });
}
