// Settings → Sign-in methods (api-contract §15): the person's linked
// identities, linking another (through the provider, in this browser) and
// removing one (never the last way in). First-party only: an application's
// token cannot add or remove a way into the account.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Envelope, View, errors } from '../http/contract.js';
import type { IdentityLinking } from './linking.js';
import type { ProviderService } from './providers.js';
import type { SsoFlow } from './oidc/flow.js';
import { IdentityView, ProviderIdParams } from './schemas.js';
import { readCookie, SSO_COOKIE, ssoCookie } from './sso-routes.js';

const FIRST_PARTY = { auth: 'required' as const, firstPartyOnly: true };

export function identityRoutes(app: FastifyInstance, deps: { linking: IdentityLinking; providers: ProviderService; flow: SsoFlow; secureCookies: boolean }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/user/identities',
    { config: FIRST_PARTY, schema: { description: 'The identities linked to the caller\'s account.', response: { 200: Envelope(Type.Array(IdentityView)) } } },
    async (request) => ok(await deps.linking.list(requireAuth(request).user.id, await deps.providers.all())),
  );

  r.post(
    '/api/v4/user/identities/:id',
    {
      config: FIRST_PARTY,
      schema: {
        description:
          'Starts linking the caller\'s account to an OpenID Connect provider (`:id`): answers the URL to open in this browser (the state is bound to it by a cookie); ' +
          'its callback links the identity and returns to /settings/sign-in.',
        params: ProviderIdParams,
        response: { 200: Envelope(View({ url: Type.String() }, { title: 'IdentityLinkStart' })), ...errors(404) },
      },
    },
    async (request, reply) => {
      const started = await deps.flow.start(request.params.id, {
        returnTo: '/settings/sign-in',
        linkUserId: requireAuth(request).user.id,
        browser: readCookie(request.headers.cookie, SSO_COOKIE),
      });
      reply.header('set-cookie', ssoCookie(started.browser, deps.secureCookies));
      return ok({ url: started.url });
    },
  );

  r.delete(
    '/api/v4/user/identities/:id',
    {
      config: FIRST_PARTY,
      schema: {
        description: 'Removes a linked identity; 403 when it is the caller\'s last way to sign in (no password, no passkey, no other identity).',
        params: ProviderIdParams,
        response: { 200: Envelope(Type.Null()), ...errors(404) },
      },
    },
    async (request) => {
      await deps.linking.unlink(requireAuth(request).user.id, request.params.id);
      return ok(null);
    },
  );
}
