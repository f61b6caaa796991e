// Download routes: file content, folders as zip, and signed URLs that work
// without an Authorization header. GET and HEAD share one handler (HEAD sends
// the same headers and no body, without opening the blob).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { DomainError, ErrorCode, badRequest } from '../core/errors.js';
import { requireAuth } from '../http/auth.js';
import type { Files } from './types.js';
import { fileSendable, sendBytes, zipSendable } from './send.js';
import { accountHolder } from './transfers.js';
import { MAX_SIGNED_ARCHIVE_ITEMS, MAX_URL_TTL } from './signed-urls.js';
import { FILE } from './repository.js';
import { FileId, Path, Paths, READ } from './schemas.js';
import type { Entry } from './tree.js';
import { Body, Bytes, DateTime, Envelope, NoBody, View, errors } from '../http/contract.js';

/** What every byte-serving route can answer (files/send.ts): the bytes, a range, a redirect to the store, not-modified, or an envelope error. */
export const BYTES = {
  200: Bytes('the bytes (Range, ETag, Last-Modified; HEAD: headers only)'),
  206: Bytes('the requested range'),
  302: NoBody('Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS)'),
  304: NoBody('If-None-Match or If-Modified-Since matched'),
  ...errors(404, 412, 416),
};

const ZIP = Bytes('the items as a ZIP (stored entries, ZIP64 where needed)', 'application/zip');
const SignedUrl = View({ url: Type.String(), expires_at: DateTime }, { title: 'SignedUrl' });

const Inline = Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true'), Type.Literal('0'), Type.Literal('false')]));
const isOn = (v: string | undefined) => v === '1' || v === 'true';
const ArchiveName = Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000-\\u001f]+$' }));

/** The archive's file name without ".zip": the one item's name, or what the client asked for, or "files". */
function archiveName(items: readonly Entry[], asked: string | undefined): string {
  if (asked) return asked.replace(/\.zip$/i, '') || 'files';
  const only = items.length === 1 ? items[0]! : null;
  return only && only.row.parent_id !== null ? only.row.name.replace(/\.zip$/i, '') || 'files' : 'files';
}

export function downloadRoutes(app: FastifyInstance, f: Files, baseUrl: string): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    method: ['GET', 'HEAD'],
    url: '/api/v4/file/content',
    exposeHeadRoute: false,
    config: READ,
    schema: { querystring: Type.Object({ path: Path, inline: Inline }), response: BYTES },
    handler: async (request, reply) => {
      const user = requireAuth(request).user.id;
      const entry = await f.files.resolve(user, request.query.path);
      return sendBytes(request, reply, fileSendable(f.files, entry), { inline: isOn(request.query.inline), hold: downloadSlot(f, user) });
    },
  });

  r.route({
    method: ['GET', 'HEAD'],
    url: '/api/v4/file/archive',
    exposeHeadRoute: false,
    config: READ,
    schema: { description: 'A folder as a zip archive (stored, streamed).', querystring: Type.Object({ path: Path }), response: { ...BYTES, 200: Bytes('the folder as a ZIP (stored entries, ZIP64 where needed)', 'application/zip'), ...errors(413) } },
    handler: async (request, reply) => {
      const user = requireAuth(request).user.id;
      const folder = await f.files.resolve(user, request.query.path);
      const zip = await f.files.archive(folder);
      return sendBytes(request, reply, zipSendable(zip, folder.row.parent_id === null ? 'files' : folder.row.name), { hold: downloadSlot(f, user) });
    },
  });

  // Several items as one ZIP. POST streams it to an API client that holds a
  // token; /archive/url signs a GET link instead, so a browser can navigate to
  // it and show its own download progress (a fetch into a Blob shows none and
  // holds the whole archive in memory).
  const resolveAll = async (ownerId: string, paths: readonly string[]) => {
    const items: Entry[] = [];
    for (const [i, p] of paths.entries()) items.push(await f.files.resolve(ownerId, p, `paths[${i}]`));
    return items;
  };

  r.post(
    '/api/v4/file/archive',
    {
      config: READ,
      schema: {
        description: 'Several files and folders as one zip archive (stored, streamed); names that collide get " (2)".',
        body: Body({ paths: Paths, name: ArchiveName }),
        response: { ...BYTES, 200: ZIP, ...errors(413) },
      },
    },
    async (request, reply) => {
      const user = requireAuth(request).user.id;
      const items = await resolveAll(user, request.body.paths);
      return sendBytes(request, reply, zipSendable(await f.files.archiveMany(items), archiveName(items, request.body.name)), { hold: downloadSlot(f, user) });
    },
  );

  r.post(
    '/api/v4/file/archive/url',
    {
      config: { ...READ, issuesCredentials: true },
      schema: {
        description: 'A signed URL that downloads several items as one zip archive without an Authorization header until it expires (a browser navigates to it).',
        body: Body({
          paths: Type.Array(Path, { minItems: 1, maxItems: MAX_SIGNED_ARCHIVE_ITEMS }),
          name: ArchiveName,
          expires_in: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_URL_TTL })),
        }),
        response: { 200: Envelope(SignedUrl), ...errors(404, 413) },
      },
    },
    async (request) => {
      const items = await resolveAll(requireAuth(request).user.id, request.body.paths);
      // Signed for the items' owner (items shared with the asker belong to someone else; one owner per link).
      const ownerId = items[0]!.row.owner_id;
      if (items.some((i) => i.row.owner_id !== ownerId)) throw badRequest('paths: items of different owners cannot be in one signed archive');
      // Fails here, with the reason, rather than later in the browser's download bar.
      await f.files.archiveMany(items);
      const expires = f.signer.expiresIn(request.body.expires_in ?? 3600);
      const ids = [...new Set(items.map((i) => i.row.id))];
      const url = baseUrl + f.signer.archivePath({ ownerId, ids, expires }, `${archiveName(items, request.body.name)}.zip`);
      return ok({ url, expires_at: new Date(expires * 1000).toISOString() });
    },
  );

  r.route({
    method: ['GET', 'HEAD'],
    url: '/api/v4/file/archive/signed/:name',
    exposeHeadRoute: false,
    config: { auth: 'none' },
    schema: {
      params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 1024 }) }),
      querystring: Type.Object({
        owner: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
        ids: Type.String({ minLength: 1, maxLength: MAX_SIGNED_ARCHIVE_ITEMS * 65, pattern: '^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$' }),
        expires: Type.Integer({ minimum: 0 }),
        sig: Type.String({ minLength: 1, maxLength: 128 }),
      }),
      response: { ...BYTES, 200: ZIP, ...errors(403, 413) },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const signed = { ownerId: q.owner, ids: q.ids.split(','), expires: q.expires };
      const verdict = f.signer.verifyArchive(signed, q.sig);
      if (verdict !== 'ok') throw new DomainError(ErrorCode.Forbidden, verdict === 'expired' ? 'This link has expired' : 'This link is not valid');
      // As the single-file link below: the signature outlives a ban, the owner's state does not (issue 19).
      if (!(await f.ownerActive(signed.ownerId))) throw new DomainError(ErrorCode.NotFound, 'File not found');
      const items: Entry[] = [];
      for (const id of signed.ids) {
        const entry = await f.files.getLiveById(id);
        // Signed for this owner's items; an id that changed hands (never, today) is not served.
        if (entry.row.owner_id !== signed.ownerId) throw new DomainError(ErrorCode.NotFound, 'File not found');
        items.push(entry);
      }
      const name = request.params.name.replace(/\.zip$/i, '') || 'files';
      // A signed link is the owner's capability: its downloads count against the owner.
      return sendBytes(request, reply, zipSendable(await f.files.archiveMany(items), name), { hold: downloadSlot(f, signed.ownerId) });
    },
  });

  r.post(
    '/api/v4/file/url',
    {
      config: { ...READ, issuesCredentials: true },
      schema: {
        description: 'A signed URL that downloads the file without an Authorization header until it expires.',
        body: Body({ path: Path, expires_in: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_URL_TTL })), inline: Type.Optional(Type.Boolean()) }),
        response: { 200: Envelope(SignedUrl), ...errors(404) },
      },
    },
    async (request) => {
      const entry = await f.files.resolve(requireAuth(request).user.id, request.body.path);
      if (entry.row.kind !== FILE) throw badRequest('path: is a folder; download folders with /api/v4/file/archive');
      const expires = f.signer.expiresIn(request.body.expires_in ?? 3600);
      const url = baseUrl + f.signer.path({ fileId: entry.row.id, expires, inline: request.body.inline === true }, entry.row.name);
      return ok({ url, expires_at: new Date(expires * 1000).toISOString() });
    },
  );

  r.route({
    method: ['GET', 'HEAD'],
    url: '/api/v4/file/signed/:id/:name',
    exposeHeadRoute: false,
    config: { auth: 'none' },
    schema: {
      params: Type.Object({ id: FileId, name: Type.String({ maxLength: 4096 }) }),
      querystring: Type.Object({ expires: Type.Integer({ minimum: 0 }), sig: Type.String({ minLength: 1, maxLength: 128 }), inline: Inline }),
      response: { ...BYTES, ...errors(403) },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const verdict = f.signer.verify({ fileId: request.params.id, expires: q.expires, inline: isOn(q.inline) }, q.sig);
      if (verdict !== 'ok') throw new DomainError(ErrorCode.Forbidden, verdict === 'expired' ? 'This link has expired' : 'This link is not valid');
      const entry = await f.files.getLiveById(request.params.id);
      // The signature outlives a ban (up to MAX_URL_TTL); the owner's state does not.
      if (!(await f.ownerActive(entry.row.owner_id))) throw new DomainError(ErrorCode.NotFound, 'File not found');
      return sendBytes(request, reply, fileSendable(f.files, entry), { inline: isOn(q.inline), hold: downloadSlot(f, entry.row.owner_id) });
    },
  });
}

/** A download slot of `userId`'s (files/transfers.ts), taken when the bytes go out. */
function downloadSlot(f: { files: { transfers: { take(kind: 'downloads', holder: string): () => void } } }, userId: string): () => () => void {
  return () => f.files.transfers.take('downloads', accountHolder(userId));
}
