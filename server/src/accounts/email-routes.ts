// Addresses (api-contract §11): activation mail again, verification, and
// changing the address. POST /user/activate (which signs in) is in
// sessions/activation-routes.ts.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { AnyPassword, Email } from '../http/schemas.js';
import { Body, Envelope, errors } from '../http/contract.js';
import { toUserView, UserViewSchema } from './views.js';
import type { EmailFlows } from './email-flows.js';

/** A link token as mailed; anything else is simply unknown (40020). */
export const LinkToken = Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9_-]+$' });
const NullResponse = { 200: Envelope(Type.Null()) };

export function emailRoutes(app: FastifyInstance, flows: EmailFlows): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/user/activate/resend',
    {
      config: { auth: 'none' },
      schema: {
        description: 'Mails a new activation link when the address belongs to an account waiting for activation; the same answer for any address (reset rules, 429).',
        body: Body({ email: Email }),
        response: { ...NullResponse, ...errors(403, 429) },
      },
    },
    async (request) => {
      await flows.resendActivation(request.body.email, request.ip);
      return ok(null);
    },
  );

  r.post(
    '/api/v4/user/email/verify',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] },
      schema: { description: 'Mails a link to the current address (<base>/verify-email?token=…, 24 h); nothing when already verified.', response: { ...NullResponse, ...errors(403) } },
    },
    async (request) => {
      await flows.requestVerification(requireAuth(request).user.id);
      return ok(null);
    },
  );

  r.post(
    '/api/v4/user/email/confirm',
    {
      config: { auth: 'none' },
      schema: {
        description: 'Uses a verification or address-change link: the address is verified, or changed to the new one. 401/40020 bad, used or expired; 409/40032 the new address was taken meanwhile.',
        body: Body({ token: LinkToken }),
        response: { 200: Envelope(UserViewSchema), ...errors(401, 409) },
      },
    },
    async (request) => ok(toUserView(await flows.confirm(request.body.token))),
  );

  r.patch(
    '/api/v4/user/email',
    {
      config: { auth: 'required', scopes: ['UserSecurityInfo.Write'] },
      schema: {
        description:
          'Asks to change the address: a confirmation link to the new address, a notice to the old one; the address changes when the link is used. ' +
          '400/40069 wrong password (throttled per account: 429 after 6 wrong), 409/40032 address taken; 429 past 6 requests per account or per new address (then a doubling lock).',
        body: Body({ email: Email, password: AnyPassword }),
        response: { ...NullResponse, ...errors(400, 403, 409, 429) },
      },
    },
    async (request) => {
      await flows.requestChange(requireAuth(request).user.id, request.body.email, request.body.password);
      return ok(null);
    },
  );
}
