// Forgotten passwords (api-contract §11): ask for a link, use it once.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Email, Password } from '../http/schemas.js';
import { Body, Envelope, View, errors } from '../http/contract.js';
import type { PasswordReset } from './password-reset.js';

/** A link token as mailed (base64url of 32 random bytes); anything else is simply unknown (40020). */
const LinkToken = Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9_-]+$' });

export function resetRoutes(app: FastifyInstance, reset: PasswordReset): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v4/user/reset',
    {
      config: { auth: 'none' },
      schema: {
        description:
          'Mails a password reset link (valid 1 h) to the address when it is registered. The answer is the same, in the same time, for any ' +
          'well-formed address; throttled per address and per client (429). 403/40019 when the site cannot send mail.',
        body: Body({ email: Email }),
        response: { 200: Envelope(Type.Null()), ...errors(403, 429) },
      },
    },
    async (request) => {
      await reset.request(request.body.email, request.ip, request.headers['accept-language']);
      return ok(null);
    },
  );

  r.patch(
    '/api/v4/user/reset',
    {
      config: { auth: 'none' },
      schema: {
        description:
          'Sets a new password with the link\'s token: every session and token of the user ends, the link stops working. ' +
          '40020 for a bad, used or expired token; 40001 for a password too easy to guess.',
        body: Body({ token: LinkToken, password: Password }),
        response: { 200: Envelope(Type.Null()), ...errors(401) },
      },
    },
    async (request) => {
      await reset.complete(request.body.token, request.body.password);
      return ok(null);
    },
  );

  r.post(
    '/api/v4/user/reset/check',
    {
      config: { auth: 'none' },
      schema: {
        description: 'Whether a reset link still works, without using it (the reset page says "expired or used" before asking for a password).',
        body: Body({ token: LinkToken }),
        response: { 200: Envelope(View({ valid: Type.Boolean() }, { title: 'LinkCheck' })) },
      },
    },
    async (request) => ok({ valid: await reset.check(request.body.token) }),
  );
}
