// The public tus endpoint of upload requests (docs/api.md, "Upload requests"):
// tus 1.0 core with creation and termination, under /api/v4/share/upload/:id,
// without an account. A password-protected link wants its unlock token in the
// X-Share-Token header on every request. Registered in a scope whose parser
// hands bodies through unread (files/module.ts acceptRawBodies).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError, ErrorCode, badRequest } from '../core/errors.js';
import { HttpError } from '../http/errors.js';
import { NoBody, RawBody, errors } from '../http/contract.js';
import { TUS_VERSION } from '../files/tus.js';
import type { UploadRow } from '../files/uploads.js';
import { PUBLIC, ShareIdParams } from './schemas.js';
import type { UploadRequests } from './upload-requests.js';

const BASE = '/api/v4/share/upload/:id';
const TUS_ERRORS = errors(403, 404, 409, 412, 413);
const UploadParams = Type.Object({ ...ShareIdParams.properties, upload: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' }) });
/** Creation and termination only: the expiration extension's header is sent, but uploads here also end with the link. */
const EXTENSIONS = 'creation,termination,expiration';

function intHeader(request: FastifyRequest, name: string): number | null {
  const raw = request.headers[name];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw badRequest(`${name}: must be a non-negative integer`);
  return Number(raw);
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-share-token'];
  return typeof header === 'string' && header.length > 0 && header.length <= 128 ? header : undefined;
}

function checkTus(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== TUS_VERSION) {
    throw new HttpError(ErrorCode.ParamError, `Tus-Resumable must be ${TUS_VERSION}`, { 'Tus-Version': TUS_VERSION }, { kind: 'precondition_failed' });
  }
}

function uploadHeaders(reply: FastifyReply, upload: UploadRow): FastifyReply {
  return reply.header('Upload-Offset', String(upload.upload_offset)).header('Upload-Expires', new Date(upload.expires_at).toUTCString()).header('Cache-Control', 'no-store');
}

export function uploadRequestRoutes(app: FastifyInstance, requests: UploadRequests): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tusResumable = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Tus-Resumable', TUS_VERSION);
  };

  for (const url of [BASE, `${BASE}/:upload`]) {
    r.options(url, { config: PUBLIC, onRequest: tusResumable, schema: { description: 'tus 1.0 discovery (upload requests)', response: { 204: NoBody('Tus-Version, Tus-Extension') } } }, async (_request, reply) =>
      reply.code(204).header('Tus-Version', TUS_VERSION).header('Tus-Extension', EXTENSIONS).header('Cache-Control', 'no-store').send(),
    );
  }

  r.post(
    BASE,
    {
      config: PUBLIC,
      onRequest: tusResumable,
      schema: {
        description: 'Upload requests: tus 1.0 creation without an account (Upload-Length; Upload-Metadata filename, optional uploader; X-Share-Token when the link has a password). The file never overwrites: a clash gets a new name.',
        params: ShareIdParams,
        response: { 201: NoBody('Location of the upload'), ...TUS_ERRORS },
      },
    },
    async (request, reply) => {
      checkTus(request);
      if (request.headers['upload-defer-length'] !== undefined) throw badRequest('Upload-Defer-Length: not supported; send Upload-Length');
      const length = intHeader(request, 'upload-length');
      if (length === null) throw badRequest('Upload-Length: is required');
      const meta = request.headers['upload-metadata'];
      const upload = await requests.create(request.params.id, tokenOf(request), length, typeof meta === 'string' ? meta : undefined, request.ip);
      const location = `/api/v4/share/upload/${request.params.id}/${upload.id}`;
      return uploadHeaders(reply.code(201).header('Location', location), { ...upload, upload_offset: length === 0 ? 0 : upload.upload_offset }).send();
    },
  );

  r.head(
    `${BASE}/:upload`,
    { config: { ...PUBLIC, swagger: { exposeHeadRoute: true } }, onRequest: tusResumable, schema: { params: UploadParams, response: { 200: NoBody('Upload-Offset, Upload-Length'), ...TUS_ERRORS, ...errors(423) } } },
    async (request, reply) => {
      checkTus(request);
      const upload = await requests.head(request.params.id, tokenOf(request), request.params.upload);
      return uploadHeaders(reply, upload).header('Upload-Length', String(upload.length)).code(200).send();
    },
  );

  r.patch(
    `${BASE}/:upload`,
    {
      config: PUBLIC,
      onRequest: tusResumable,
      schema: {
        description: 'Upload requests: tus 1.0, appends bytes at Upload-Offset. Refused once the link expired, was deleted or its owner banned.',
        'x-body': RawBody('the next bytes of the upload', ['application/offset+octet-stream']),
        params: UploadParams,
        response: { 204: NoBody('Upload-Offset'), ...TUS_ERRORS, ...errors(408, 415, 423) },
      },
    },
    async (request, reply) => {
      checkTus(request);
      if (request.headers['content-type'] !== 'application/offset+octet-stream') {
        throw new DomainError(ErrorCode.ParamError, 'Content-Type must be application/offset+octet-stream', { kind: 'unsupported_media_type' });
      }
      const offset = intHeader(request, 'upload-offset');
      if (offset === null) throw badRequest('Upload-Offset: is required');
      const length = request.headers['transfer-encoding'] !== undefined ? null : intHeader(request, 'content-length');
      const upload = await requests.patch(request.params.id, tokenOf(request), request.params.upload, offset, request.raw, length);
      return uploadHeaders(reply, upload).code(204).send();
    },
  );

  r.delete(
    `${BASE}/:upload`,
    { config: PUBLIC, onRequest: tusResumable, schema: { description: 'Upload requests: tus 1.0 termination (frees the upload\'s slot)', params: UploadParams, response: { 204: NoBody('terminated'), ...TUS_ERRORS } } },
    async (request, reply) => {
      checkTus(request);
      await requests.terminate(request.params.id, tokenOf(request), request.params.upload);
      return reply.code(204).send();
    },
  );
}
