// Avatar routes (docs/api.md, "Users"): upload and delete your own; anyone may
// fetch one by user id (an <img> sends no Authorization header; user ids are
// not secrets, and a picture is what the person chose to show).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { AVATAR_TYPES, MAX_AVATAR_BYTES, avatarPath, type Avatars } from './avatars.js';

const WRITE = { auth: 'required' as const, scopes: ['UserInfo.Write'] };

export async function avatarRoutes(app: FastifyInstance, avatars: Avatars): Promise<void> {
  await app.register(async (scope) => {
    // The picture is the body, as sent by a file input (no multipart): this
    // scope alone reads image bodies, up to the avatar size cap.
    scope.addContentTypeParser([...AVATAR_TYPES], { parseAs: 'buffer', bodyLimit: MAX_AVATAR_BYTES }, (_request, body, done) => done(null, body));
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();

    r.put('/api/v4/user/avatar', { config: WRITE }, async (request) => {
      const userId = requireAuth(request).user.id;
      const version = await avatars.set(userId, request.body as Buffer);
      return ok({ avatar_url: avatarPath(userId, version) });
    });

    r.delete('/api/v4/user/avatar', { config: WRITE }, async (request) => {
      await avatars.remove(requireAuth(request).user.id);
      return ok(null);
    });

    r.get(
      '/api/v4/user/avatar/:id',
      {
        config: { auth: 'none' },
        schema: {
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }),
          querystring: Type.Object({ v: Type.Optional(Type.Integer({ minimum: 0 })) }),
        },
      },
      async (request, reply) => {
        const { image, updatedAt } = await avatars.get(request.params.id);
        const etag = `"avatar-${updatedAt}"`;
        // A URL naming the current version never changes; any other (no ?v=, an old one) is revalidated.
        reply.header('Cache-Control', request.query.v === updatedAt ? 'public, max-age=31536000, immutable' : 'public, no-cache');
        reply.header('ETag', etag);
        reply.header('X-Content-Type-Options', 'nosniff');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.type('image/webp').send(image);
      },
    );
  });
}
