// Dashboard → Settings → Sign-in providers (api-contract §15): list, add,
// change, remove and test upstream providers. Secrets are write-only.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Envelope, errors } from '../http/contract.js';
import { toProviderView, type ProviderInput, type ProviderService } from './providers.js';
import { ChangeProvider, CreateProvider, ProviderIdParams, ProviderView, TestResult } from './schemas.js';
import type { TestStep } from './oidc/client.js';

const ADMIN_READ = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const ADMIN_WRITE = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };
const BASE = '/api/v4/admin/identity-providers';

export function adminProviderRoutes(app: FastifyInstance, providers: ProviderService, test: (id: string) => Promise<TestStep[]>): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(BASE, { config: ADMIN_READ, schema: { description: 'Every sign-in provider, oldest first (secrets only as *_set).', response: { 200: Envelope(Type.Array(ProviderView)) } } }, async () =>
    ok((await providers.all()).map(toProviderView)),
  );

  r.put(
    BASE,
    {
      config: ADMIN_WRITE,
      schema: {
        description: 'Adds an OpenID Connect provider (by issuer: the endpoints come from discovery) or an LDAP directory.',
        body: CreateProvider,
        response: { 200: Envelope(ProviderView) },
      },
    },
    async (request) => ok(toProviderView(await providers.create(request.body as ProviderInput))),
  );

  r.patch(
    `${BASE}/:id`,
    {
      config: ADMIN_WRITE,
      schema: { description: 'Changes a provider; an absent secret keeps the stored one.', params: ProviderIdParams, body: ChangeProvider, response: { 200: Envelope(ProviderView), ...errors(404) } },
    },
    async (request) => ok(toProviderView(await providers.update(request.params.id, request.body as ProviderInput))),
  );

  r.delete(
    `${BASE}/:id`,
    { config: ADMIN_WRITE, schema: { description: 'Removes a provider and the identities linked through it.', params: ProviderIdParams, response: { 200: Envelope(Type.Null()), ...errors(404) } } },
    async (request) => {
      await providers.delete(request.params.id);
      return ok(null);
    },
  );

  r.post(
    `${BASE}/:id/test`,
    {
      config: ADMIN_WRITE,
      schema: {
        description: 'Tries the provider: discovery and JWKS (OpenID Connect), or bind and search (LDAP); answers what worked, or the server\'s own error.',
        params: ProviderIdParams,
        response: { 200: Envelope(TestResult), ...errors(404) },
      },
    },
    async (request) => {
      const steps = await test(request.params.id);
      return ok({ ok: steps.every((s) => s.ok), steps });
    },
  );
}
