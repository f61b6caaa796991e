// The first-party APIs behind the /device page (RFC 8628 §3.3): what a user
// code asks for, and the person's decision. The page itself is the web app,
// served like the authorize page.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.js';
import { Body, Envelope, View, errors } from '../../http/contract.js';
import { requireAuth } from '../../http/auth.js';
import type { PageSender } from '../../http/pages.js';
import type { ConsentService } from '../consent.js';
import { OAUTH_PATHS } from '../paths.js';
import { AppInfoSchema } from '../authorize-routes.js';
import type { DeviceFlowService } from './service.js';

const UserCode = Type.String({ minLength: 1, maxLength: 32, description: 'XXXX-XXXX; case, spaces and dashes do not matter' });

const DeviceRequestSchema = View(
  {
    user_code: Type.String({ description: 'normalised: XXXX-XXXX' }),
    scopes: Type.Array(Type.String()),
    app: AppInfoSchema,
  },
  { title: 'DeviceRequest' },
);
const DeviceDecisionSchema = View({ approved: Type.Boolean() }, { title: 'DeviceDecision' });

export function deviceRoutes(app: FastifyInstance, deps: { devices: DeviceFlowService; consent: ConsentService; sendPage: PageSender }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { auth: 'required' as const, firstPartyOnly: true };

  r.get(OAUTH_PATHS.device, { config: { auth: 'none' } }, async (_request, reply) => deps.sendPage(reply, 200));

  r.post(
    OAUTH_PATHS.deviceVerify,
    {
      config,
      schema: {
        description: 'The device request a user code names (RFC 8628 §3.3). Wrong codes are counted per user and address; past the allowance 429.',
        body: Body({ user_code: UserCode }),
        response: { 200: Envelope(DeviceRequestSchema), ...errors(404, 429) },
      },
    },
    async (request) => ok(await deps.devices.lookup(requireAuth(request).user.id, request.ip, request.body.user_code)),
  );

  r.post(
    OAUTH_PATHS.deviceConsent,
    {
      config: { ...config, issuesCredentials: true },
      schema: {
        description: 'The person approves or denies a device request; the device then gets tokens, or access_denied, at its next poll.',
        body: Body({ user_code: UserCode, approve: Type.Boolean() }),
        response: { 200: Envelope(DeviceDecisionSchema), ...errors(404, 429) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const authTime = await deps.consent.authTime(auth.sid);
      return ok(await deps.devices.decide(auth.user.id, authTime, request.ip, request.body.user_code, request.body.approve));
    },
  );
}
