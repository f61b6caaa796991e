// GET /api/v4/file/thumb?path=&size= (Files.Read): a WebP thumbnail of an image.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../http/auth.js';
import { Bytes, NoBody, errors } from '../http/contract.js';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';
import { Path, READ } from './schemas.js';
import type { Thumbnails } from './thumbnails.js';

const Query = Type.Object({ path: Path, size: Type.Optional(Type.Integer({ minimum: 16, maximum: 1024, default: 256 })) });

export function thumbRoutes(app: FastifyInstance, thumbs: Thumbnails): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/file/thumb',
    {
      config: READ,
      schema: {
        description:
          'A WebP thumbnail of an image, at most `size` on its longer side (rounded up to 64/128/256/512/1024). ' +
          '400 for folders, non-raster types and unreadable images; 413 for sources over 50 MiB or 50 Mpx.',
        querystring: Query,
        // Raw WebP bytes, not the envelope.
        response: { 200: Bytes('the thumbnail; ETag, Cache-Control: private, max-age=86400', 'image/webp'), 304: NoBody('If-None-Match matched the ETag'), ...errors(404, 413) },
      },
    },
    async (request, reply) => {
      const thumb = await thumbs.get(requireAuth(request).user.id, request.query.path, request.query.size ?? 256);
      reply.headers(USER_CONTENT_HEADERS).header('ETag', thumb.etag).header('Cache-Control', 'private, max-age=86400');
      if (request.headers['if-none-match'] === thumb.etag) return reply.code(304).send();
      return reply.type('image/webp').send(thumb.body);
    },
  );
}
