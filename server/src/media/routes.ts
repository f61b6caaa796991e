// GET /api/v4/admin/media/status (admins): which kinds are on and what to
// install for those that are off, and how many blobs are in each state.
// GET /api/v4/file/photos and /file/photos/places (Files.Read): the person's
// pictures and videos, newest taken first, and the geotagged ones for a map.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { DateTime, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { requireAuth } from '../http/auth.js';
import { READ } from '../files/schemas.js';
import { MediaViewSchema } from '../files/views.js';
import type { MediaService } from './service.js';
import type { Photos } from './photos.js';

const KIND = StringEnum(['image', 'heif', 'video', 'audio', 'pdf']);

const MediaStatusSchema = View(
  {
    kinds: Type.Array(
      View(
        {
          kind: KIND,
          enabled: Type.Boolean(),
          missing: Type.Array(Type.String(), { description: 'tools not found on PATH' }),
          package: Nullable('string', { description: 'the Debian package to install when the kind is off' }),
        },
        { title: 'MediaKindStatus' },
      ),
    ),
    counts: View(
      { pending: Type.Integer(), done: Type.Integer(), failed: Type.Integer(), skipped: Type.Integer(), off: Type.Integer() },
      { title: 'MediaCounts', description: 'blobs by state; failed ones are not tried again, off ones are made when the tool is installed (at the next start)' },
    ),
  },
  { title: 'MediaStatus' },
);

const PhotoSchema = View(
  {
    id: Type.String(),
    name: Type.String(),
    path: Type.String(),
    mime_type: Nullable('string'),
    size: Type.Integer(),
    created_at: DateTime,
    taken_at: Nullable('string', { format: 'date-time', description: 'null when the file says nothing; it then sorts by when its content was first stored' }),
    media: Type.Union([MediaViewSchema, Type.Null()]),
  },
  { title: 'PhotoItem' },
);

export function mediaRoutes(app: FastifyInstance, media: MediaService, photos: Photos): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/admin/media/status',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Read'] },
      schema: { description: 'Thumbnail and metadata kinds (on, or off with the tools and Debian package to install) and blobs by state.', response: { 200: Envelope(MediaStatusSchema) } },
    },
    async () => ok(await media.status()),
  );
  r.get(
    '/api/v4/file/photos',
    {
      config: READ,
      schema: {
        description: "The person's pictures and videos, newest taken first (without a date taken: by when the content was first stored), keyset-paged by `cursor`.",
        querystring: Type.Object({
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 200 })),
        }),
        response: { 200: Envelope(View(
            {
              items: Type.Array(PhotoSchema),
              next_cursor: Nullable('string'),
              total: Nullable('integer', { description: 'on the first page (no cursor): how many items the whole listing holds (an upper bound by the items inside trashed folders); null on later pages' }),
            },
            { title: 'PhotoPage' },
          )), ...errors(400) },
      },
    },
    async (request) => ok(await photos.list(requireAuth(request).user.id, request.query.page_size ?? 200, request.query.cursor)),
  );
  r.get(
    '/api/v4/file/photos/places',
    {
      config: READ,
      schema: {
        description: "The person's geotagged pictures and videos (at most 50,000), for a map.",
        response: { 200: Envelope(Type.Array(View({ id: Type.String(), lat: Type.Number(), lon: Type.Number() }, { title: 'PhotoPlace' }))) },
      },
    },
    async (request) => ok(await photos.places(requireAuth(request).user.id)),
  );
}
