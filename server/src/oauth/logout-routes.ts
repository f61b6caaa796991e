// /session/logout (the end_session_endpoint) and the two calls its page makes.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, Nullable, StringEnum, View } from '../http/contract.js';
import type { PageSender } from '../http/pages.js';
import { DomainError } from '../core/errors.js';
import { CONFIRM_REASONS, type LogoutRequest, type RpLogout } from './logout.js';
import { paramsFromQuery } from './params.js';
import { OAUTH_PATHS } from './paths.js';

const loose = Type.Optional(Type.String({ maxLength: 8192 }));
const LogoutBody = Body({ id_token_hint: loose, post_logout_redirect_uri: loose, state: loose, client_id: loose });

const LogoutViewSchema = View(
  {
    client: Type.Union([View({ id: Type.String(), name: Type.String(), icon: Type.String() }, { title: 'LogoutClient' }), Type.Null()]),
    confirm: Type.Boolean({ description: 'ask the person first: unless a live id_token_hint names the person whose token this request carries (RP-Initiated Logout 1.0 §2)' }),
    reason: Type.Union([StringEnum(CONFIRM_REASONS), Type.Null()], { description: 'why the person is asked; null when not asked' }),
    redirect_uri: Nullable('string', { description: 'the registered post-logout URI with state, or null' }),
  },
  { title: 'LogoutView' },
);
const LogoutResultSchema = View({ redirect_uri: Nullable('string') }, { title: 'LogoutResult' });

const NAMES = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] as const;

export function logoutRoutes(app: FastifyInstance, deps: { logout: RpLogout; sendPage: PageSender }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // The page is served only for a request whose redirect can be trusted; otherwise 400 and no redirect.
  r.get(OAUTH_PATHS.endSession, { config: { auth: 'none' } }, async (request, reply) => {
    const q = request.url.indexOf('?');
    const params = paramsFromQuery(q < 0 ? '' : request.url.slice(q + 1));
    const req: LogoutRequest = {};
    for (const name of NAMES) {
      const values = params.get(name);
      if (values === undefined) continue;
      if (values.length !== 1) return deps.sendPage(reply, 400);
      req[name] = values[0]!;
    }
    try {
      await deps.logout.check(req);
    } catch (err) {
      if (err instanceof DomainError) return deps.sendPage(reply, 400);
      throw err;
    }
    return deps.sendPage(reply, 200);
  });

  r.post(
    OAUTH_PATHS.logoutCheck,
    {
      // The page sends the browser's own token when it has one: only the hinted person, signed in here, is signed out without a question.
      config: { auth: 'optional', firstPartyOnly: true },
      schema: { description: "What the logout page shows: the app, whether to ask, and where the browser goes afterwards. Send the browser's Cirrus token, if any.", body: LogoutBody, response: { 200: Envelope(LogoutViewSchema) } },
    },
    async (request) => ok(await deps.logout.view(request.body, request.auth?.user.id ?? null)),
  );

  r.post(
    OAUTH_PATHS.logout,
    {
      config: { auth: 'none' },
      schema: {
        description: "Ends the app's session family named by id_token_hint (RP-Initiated Logout 1.0); the page ends the browser's own session. Answers where to go next.",
        body: LogoutBody,
        response: { 200: Envelope(LogoutResultSchema) },
      },
    },
    async (request) => ok(await deps.logout.logout(request.body)),
  );
}
