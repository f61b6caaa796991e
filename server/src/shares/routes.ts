// The owner's and the administrator's share routes (docs/api.md, "Shares").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import { NO_CONTROL } from '../http/schemas.js';
import { ADMIN_SHARE_ORDER } from './repository.js';
import type { ShareService } from './service.js';
import { Body, DateTime, Envelope, Nullable, Pagination, StringEnum, View, errors } from '../http/contract.js';
import { AdminShareViewSchema, ShareViewSchema } from './views.js';
import {
  ADMIN_READ, ADMIN_WRITE, DownloadLimit, ExpiresAt, ExpiresIn, MaxFileSize, MaxFiles, PageToken, Path, READ, ShareIdParams, SharePassword, WRITE,
} from './schemas.js';
import type { UploadRequests } from './upload-requests.js';

const ReceivedFileSchema = View(
  { id: Type.String(), name: Type.String({ description: 'the name the file got in the folder (a clash gets "name (1).ext")' }), size: Type.Integer(), uploader: Nullable('string', { description: 'the name the uploader typed, if any' }), uploaded_at: DateTime },
  { title: 'ReceivedFile' },
);
const ReceivedPage = View({ uploads: Type.Array(ReceivedFileSchema), next_page_token: Nullable('string') }, { title: 'ReceivedFilePage' });
const PendingUploadSchema = View(
  {
    id: Type.String(),
    name: Type.String({ description: 'the name the uploader asked for' }),
    uploader: Nullable('string', { description: 'the name the uploader typed, if any' }),
    reserved: Type.Integer({ description: "bytes of the owner's quota the upload holds (its Upload-Length)" }),
    received: Type.Integer({ description: 'bytes received so far' }),
    created_at: DateTime,
    expires_at: { ...DateTime, description: 'when it lapses unless more bytes arrive' },
  },
  { title: 'PendingUpload' },
);
const PendingPage = View({ uploads: Type.Array(PendingUploadSchema) }, { title: 'PendingUploadList' });
const PendingParams = Type.Object({ ...ShareIdParams.properties, upload: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });

const StripLocation = Type.Boolean({ description: 'send pictures (alone or in a folder ZIP) without their location (EXIF GPS, XMP places), refusing TIFF and camera raw ones; default true' });

const CreateBody = Body(
  {
    path: Path,
    password: Type.Optional(SharePassword),
    expires_at: Type.Optional(ExpiresAt),
    expires_in: Type.Optional(ExpiresIn),
    download_limit: Type.Optional(DownloadLimit),
    upload_only: Type.Optional(Type.Boolean({ description: 'an upload request (folders only): people with the link send files in and see nothing of the folder' })),
    max_file_size: Type.Optional(MaxFileSize),
    max_files: Type.Optional(MaxFiles),
    notify_downloads: Type.Optional(Type.Boolean({ description: 'tell the owner of each download (a link_downloaded notification)' })),
    strip_location: Type.Optional(StripLocation),
  },
);

const ChangeBody = Body(
  {
    password: Type.Optional(Type.Union([SharePassword, Type.Null()])),
    expires_at: Type.Optional(Type.Union([ExpiresAt, Type.Null()])),
    expires_in: Type.Optional(ExpiresIn),
    download_limit: Type.Optional(Type.Union([DownloadLimit, Type.Null()])),
    max_file_size: Type.Optional(Type.Union([MaxFileSize, Type.Null()])),
    max_files: Type.Optional(Type.Union([MaxFiles, Type.Null()])),
    notify_downloads: Type.Optional(Type.Boolean({ description: 'tell the owner of each download (a link_downloaded notification)' })),
    strip_location: Type.Optional(StripLocation),
  },
);

const ListQuery = Type.Object({
  /** Only the shares of the item at this path (the share dialog opens an existing link). */
  path: Type.Optional(Path),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  next_page_token: Type.Optional(PageToken),
});

// The fields of the other admin lists (http/schemas.ts AdminListBody), spelled
// out so the sort field and user_id keep their types in the handler.
const AdminShareListBody = Body(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    keyword: Type.Optional(Type.String({ maxLength: 128, pattern: NO_CONTROL })),
    order_by: Type.Optional(StringEnum(ADMIN_SHARE_ORDER)),
    order_direction: Type.Optional(StringEnum(['asc', 'desc'])),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  },
);

const ShareResponse = { 200: Envelope(ShareViewSchema), ...errors(404) };
const NullResponse = { 200: Envelope(Type.Null()), ...errors(404) };
const SharePage = View({ shares: Type.Array(ShareViewSchema), next_page_token: Nullable('string') }, { title: 'SharePage' });
const AdminSharePage = View(
  { shares: Type.Array(AdminShareViewSchema), pagination: Pagination },
  { title: 'AdminSharePage' },
);

export function shareRoutes(app: FastifyInstance, shares: ShareService, requests: UploadRequests): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/share/:id/uploads',
    {
      config: READ,
      schema: {
        description: 'Upload requests: the files received through the link, newest first, with the name each uploader gave.',
        params: ShareIdParams,
        querystring: Type.Object({ page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })), next_page_token: Type.Optional(PageToken) }),
        response: { 200: Envelope(ReceivedPage), ...errors(403, 404) },
      },
    },
    async (request) => ok(await requests.received(requireAuth(request).user.id, request.params.id, request.query.page_size ?? 100, request.query.next_page_token)),
  );

  r.get(
    '/api/v4/share/:id/uploads/pending',
    {
      config: READ,
      schema: {
        description: "Upload requests: the uploads in flight through the link (oldest first, at most 1000), with the bytes of the owner's quota each holds and has received.",
        params: ShareIdParams,
        response: { 200: Envelope(PendingPage), ...errors(403, 404) },
      },
    },
    async (request) => ok({ uploads: await requests.pending(requireAuth(request).user.id, request.params.id) }),
  );

  r.delete(
    '/api/v4/share/:id/uploads/pending/:upload',
    {
      config: WRITE,
      schema: {
        description: "Upload requests: cancels an upload in flight through the link; its bytes and its reservation of the owner's quota go at once.",
        params: PendingParams,
        response: { 200: Envelope(Type.Null()), ...errors(403, 404) },
      },
    },
    async (request) => {
      await requests.cancel(requireAuth(request).user.id, request.params.id, request.params.upload);
      return ok(null);
    },
  );

  r.put('/api/v4/share', { config: WRITE, schema: { description: 'Shares a file or folder by path.', body: CreateBody, response: ShareResponse } }, async (request) =>
    ok(await shares.create(requireAuth(request).user.id, request.body)),
  );

  r.get('/api/v4/share', { config: READ, schema: { querystring: ListQuery, response: { 200: Envelope(SharePage), ...errors(404) } } }, async (request) =>
    ok(await shares.list(requireAuth(request).user.id, request.query.page_size ?? 50, request.query.next_page_token, request.query.path)),
  );

  r.get('/api/v4/share/:id', { config: READ, schema: { params: ShareIdParams, response: ShareResponse } }, async (request) =>
    ok(await shares.get(requireAuth(request).user.id, request.params.id)),
  );

  r.patch('/api/v4/share/:id', { config: WRITE, schema: { params: ShareIdParams, body: ChangeBody, response: ShareResponse } }, async (request) =>
    ok(await shares.update(requireAuth(request).user.id, request.params.id, request.body)),
  );

  r.delete('/api/v4/share/:id', { config: WRITE, schema: { params: ShareIdParams, response: NullResponse } }, async (request) => {
    await shares.delete(requireAuth(request).user.id, request.params.id);
    return ok(null);
  });

  r.post(
    '/api/v4/admin/share',
    {
      config: ADMIN_READ,
      schema: {
        description: "Lists every share a page at a time, searched by the owner's e-mail or nickname, the item's name or the share id, sorted, optionally of one owner.",
        body: AdminShareListBody,
        response: { 200: Envelope(AdminSharePage) },
      },
    },
    async (request) => {
      const b = request.body;
      return ok(await shares.adminList(b.page ?? 1, b.page_size ?? 20, { ownerId: b.user_id, keyword: b.keyword, orderBy: b.order_by, direction: b.order_direction }));
    },
  );

  r.delete('/api/v4/admin/share/:id', { config: ADMIN_WRITE, schema: { params: ShareIdParams, response: NullResponse } }, async (request) => {
    await shares.adminDelete(request.params.id);
    return ok(null);
  });
}
