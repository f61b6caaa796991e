// GET /api/v4/file/thumb?path=&size= (Files.Read): a WebP thumbnail of an image.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../http/auth.js';
import { Bytes, Envelope, NoBody, errors } from '../http/contract.js';
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
          'A WebP thumbnail of a picture (JPEG, PNG, WebP, GIF, AVIF, TIFF, BMP, HEIC/HEIF), a video (a frame from about 10 % in), ' +
          'a PDF (page one) or a song (its cover art), at most `size` on its longer side (rounded up to 64/128/256/512/1024). ' +
          '202 with Retry-After while it is being made; 404 when this file has none (no cover art, unreadable, its tool not installed: ' +
          'remembered, not retried at every view); 400 for folders, other types and unreadable raster images; 413 for sources over 50 MiB or 50 Mpx.',
        querystring: Query,
        // Raw WebP bytes, not the envelope.
        response: { 200: Bytes('the thumbnail; ETag, Cache-Control: private, max-age=86400', 'image/webp'), 202: Envelope(Type.Null()), 304: NoBody('If-None-Match matched the ETag'), ...errors(404, 413) },
      },
    },
    async (request, reply) => {
      const thumb = await thumbs.get(requireAuth(request).user.id, request.query.path, request.query.size ?? 256);
      if ('pending' in thumb) return reply.code(202).header('Retry-After', String(thumb.retryAfterSeconds)).send({ code: 0, data: null, msg: 'the thumbnail is being made' });
      reply.headers(USER_CONTENT_HEADERS).header('ETag', thumb.etag).header('Cache-Control', 'private, max-age=86400');
      if (request.headers['if-none-match'] === thumb.etag) return reply.code(304).send();
      return reply.type('image/webp').send(thumb.body);
    },
  );
}
