// Avatar routes (docs/api.md, "Users"): upload and delete your own; anyone may
// fetch one by user id (an <img> sends no Authorization header; user ids are
// not secrets, and a picture is what the person chose to show).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { Bytes, Envelope, NoBody, RawBody, View, errors } from '../http/contract.js';
import { AVATAR_TYPES, MAX_AVATAR_BYTES, avatarPath, type Avatars } from './avatars.js';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';

const WRITE = { auth: 'required' as const, scopes: ['UserInfo.Write'] };

export async function avatarRoutes(app: FastifyInstance, avatars: Avatars): Promise<void> {
  await app.register(async (scope) => {
    // The picture is the body, as sent by a file input (no multipart): this
    // scope alone reads image bodies, up to the avatar size cap.
    scope.addContentTypeParser([...AVATAR_TYPES], { parseAs: 'buffer', bodyLimit: MAX_AVATAR_BYTES }, (_request, body, done) => done(null, body));
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();

    r.put(
      '/api/v4/user/avatar',
      {
        config: WRITE,
        schema: {
          description:
            `Sets your avatar from the picture itself as the body (Content-Type ${AVATAR_TYPES.join(', ')}; at most 10 MiB): ` +
            'cropped to its centred square, resized to 256 pixels and stored as WebP.',
          // The body is the picture (documented, not validated as JSON); its errors are listed here.
          'x-body': RawBody('the picture', AVATAR_TYPES),
          response: {
            200: Envelope(View({ avatar_url: Type.String({ description: 'same-origin path of the new version' }) }, { title: 'AvatarSet' })),
            ...errors(413, 415),
          },
        },
      },
      async (request) => {
        const userId = requireAuth(request).user.id;
        const version = await avatars.set(userId, request.body as Buffer);
        return ok({ avatar_url: avatarPath(userId, version) });
      },
    );

    r.delete(
      '/api/v4/user/avatar',
      { config: WRITE, schema: { description: 'Removes your avatar (back to initials).', response: { 200: Envelope(Type.Null()) } } },
      async (request) => {
        await avatars.remove(requireAuth(request).user.id);
        return ok(null);
      },
    );

    r.get(
      '/api/v4/user/avatar/:id',
      {
        config: { auth: 'none' },
        schema: {
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }),
          querystring: Type.Object({ v: Type.Optional(Type.Integer({ minimum: 0, description: 'the version (avatar_url carries it); the current one is cached for good' })) }),
          description: "A person's avatar, a 256-pixel WebP (public: an <img> sends no token).",
          response: {
            200: Bytes('the avatar (Cache-Control: immutable for the current version, otherwise no-cache; ETag)', 'image/webp'),
            304: NoBody('If-None-Match matched'),
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        const { image, updatedAt } = await avatars.get(request.params.id);
        const etag = `"avatar-${updatedAt}"`;
        // A URL naming the current version never changes; any other (no ?v=, an old one) is revalidated.
        reply.header('Cache-Control', request.query.v === updatedAt ? 'public, max-age=31536000, immutable' : 'public, no-cache');
        reply.header('ETag', etag);
        reply.headers(USER_CONTENT_HEADERS);
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.type('image/webp').send(image);
      },
    );
  });
}
