// POST /user/activate (api-contract §11): the activation link's token
// activates the account and signs the person in, answering like a password
// sign-in ({user, token}, the device cookie).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, View, errors } from '../http/contract.js';
import { toUserView, UserViewSchema } from '../accounts/views.js';
import type { UserWithGroup } from '../db/schema.js';
import type { SessionService } from './service.js';
import type { DeviceCookies } from './device-cookies.js';
import { TokenPairSchema, type SignInRecorder } from './routes.js';

const LinkToken = Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9_-]+$' });

export function activationRoutes(
  app: FastifyInstance,
  activate: (token: string) => Promise<UserWithGroup>,
  sessions: SessionService,
  devices: DeviceCookies,
  recordSignIn?: SignInRecorder,
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/v4/user/activate',
    {
      config: { auth: 'none', issuesCredentials: true },
      schema: {
        description: 'Activates the account with the activation link\'s token and signs in (like POST /session/token). 401/40020 bad, used or expired.',
        body: Body({ token: LinkToken }),
        response: { 200: Envelope(View({ user: UserViewSchema, token: TokenPairSchema }, { title: 'Activated' })), ...errors(401) },
      },
    },
    async (request, reply) => {
      const user = await activate(request.body.token);
      const { pair } = await sessions.startFamily(user.id);
      await recordSignIn?.(pair.access_token, request);
      reply.header('set-cookie', devices.issue(user.email));
      return ok({ user: toUserView(user), token: pair });
    },
  );
}
