// Upload routes: a streamed raw PUT for whole files, and the tus 1.0
// resumable protocol under /api/v4/file/upload. Registered in a scope whose
// content-type parser passes every body through unread (module.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { DomainError, ErrorCode, badRequest } from '../core/errors.js';
import { HttpError } from '../http/errors.js';
import { requireAuth } from '../http/auth.js';
import type { Files } from './types.js';
import { TUS_EXTENSIONS, TUS_VERSION } from './tus.js';
import type { UploadRow } from './upload-repository.js';
import { FileViewSchema, toFileView } from './views.js';
import { Envelope, NoBody, RawBody, errors } from '../http/contract.js';
import { Path, WRITE } from './schemas.js';
import { writerOf } from './version-routes.js';

const UPLOAD = '/api/v4/file/upload';
const TUS_ERRORS = errors(404, 409, 412, 413);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });

/** A non-negative integer header (Content-Length, Upload-Length, Upload-Offset), or null when absent. */
function intHeader(request: FastifyRequest, name: string): number | null {
  const raw = request.headers[name];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw badRequest(`${name}: must be a non-negative integer`);
  return Number(raw);
}

/** tus 1.0: every request but OPTIONS names the protocol version; others get 412 and the versions we speak. */
function checkTus(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== TUS_VERSION) {
    throw new HttpError(ErrorCode.ParamError, `Tus-Resumable must be ${TUS_VERSION}`, { 'Tus-Version': TUS_VERSION }, { kind: 'precondition_failed' });
  }
}

function uploadHeaders(reply: FastifyReply, upload: UploadRow): void {
  reply.header('Upload-Offset', String(upload.upload_offset));
  reply.header('Upload-Expires', new Date(upload.expires_at).toUTCString());
}

export function uploadRoutes(app: FastifyInstance, f: Files): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tusResumable = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Tus-Resumable', TUS_VERSION);
  };

  r.put(
    '/api/v4/file/content',
    {
      config: WRITE,
      schema: {
        description: 'Creates or overwrites a file from the raw request body (any Content-Type); parents are created.',
        'x-body': RawBody('the file\'s bytes, stored as sent (never parsed)', ['*/*']),
        querystring: Type.Object({ path: Path }),
        response: { 200: Envelope(FileViewSchema), ...errors(404, 408, 409, 413) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const owner = auth.user.id;
      const chunked = request.headers['transfer-encoding'] !== undefined;
      const length = chunked ? null : (intHeader(request, 'content-length') ?? 0);
      return ok(toFileView(await f.uploads.put(owner, request.query.path, request.raw, length, writerOf(auth))));
    },
  );

  for (const url of [UPLOAD, `${UPLOAD}/:id`]) {
    r.options(url, { config: { auth: 'none' }, onRequest: tusResumable, schema: { description: 'tus 1.0 discovery', response: { 204: NoBody('Tus-Version, Tus-Extension') } } }, async (_request, reply) => {
      return reply
        .code(204)
        .header('Tus-Version', TUS_VERSION)
        .header('Tus-Extension', TUS_EXTENSIONS)
        .header('Cache-Control', 'no-store')
        .send();
    });
  }

  r.post(UPLOAD, { config: WRITE, onRequest: tusResumable, schema: { description: 'tus 1.0 creation (Upload-Length, Upload-Metadata with filename and path)', response: { 201: NoBody('Location of the upload'), ...TUS_ERRORS } } }, async (request, reply) => {
    checkTus(request);
    if (request.headers['upload-defer-length'] !== undefined) throw badRequest('Upload-Defer-Length: not supported; send Upload-Length');
    const length = intHeader(request, 'upload-length');
    if (length === null) throw badRequest('Upload-Length: is required');
    const meta = request.headers['upload-metadata'];
    const auth = requireAuth(request);
    const { upload } = await f.tus.create(auth.user.id, length, typeof meta === 'string' ? meta : undefined, writerOf(auth));
    uploadHeaders(reply.code(201).header('Location', f.tus.location(upload)), { ...upload, upload_offset: length === 0 ? 0 : upload.upload_offset });
    return reply.send();
  });

  r.head(`${UPLOAD}/:id`, { config: { ...WRITE, swagger: { exposeHeadRoute: true } }, onRequest: tusResumable, schema: { params: IdParams, response: { 200: NoBody('Upload-Offset, Upload-Length'), ...TUS_ERRORS, ...errors(423) } } }, async (request, reply) => {
    checkTus(request);
    const upload = await f.tus.head(requireAuth(request).user.id, request.params.id);
    uploadHeaders(reply, upload);
    reply.header('Upload-Length', String(upload.length));
    if (upload.metadata) reply.header('Upload-Metadata', upload.metadata);
    return reply.header('Cache-Control', 'no-store').code(200).send();
  });

  r.patch(`${UPLOAD}/:id`, { config: WRITE, onRequest: tusResumable, schema: { description: 'tus 1.0: appends bytes at Upload-Offset (Content-Type application/offset+octet-stream)', 'x-body': RawBody('the next bytes of the upload', ['application/offset+octet-stream']), params: IdParams, response: { 204: NoBody('Upload-Offset'), ...TUS_ERRORS, ...errors(408, 415, 423) } } }, async (request, reply) => {
    checkTus(request);
    if (request.headers['content-type'] !== 'application/offset+octet-stream') {
      throw new DomainError(ErrorCode.ParamError, 'Content-Type must be application/offset+octet-stream', { kind: 'unsupported_media_type' });
    }
    const offset = intHeader(request, 'upload-offset');
    if (offset === null) throw badRequest('Upload-Offset: is required');
    const length = request.headers['transfer-encoding'] !== undefined ? null : intHeader(request, 'content-length');
    const { upload } = await f.tus.patch(requireAuth(request).user.id, request.params.id, offset, request.raw, length);
    uploadHeaders(reply, upload);
    return reply.code(204).send();
  });

  r.delete(`${UPLOAD}/:id`, { config: WRITE, onRequest: tusResumable, schema: { description: 'tus 1.0 termination', params: IdParams, response: { 204: NoBody('terminated'), ...TUS_ERRORS } } }, async (request, reply) => {
    checkTus(request);
    await f.tus.terminate(requireAuth(request).user.id, request.params.id);
    return reply.code(204).send();
  });
}
