// Version routes (api-contract §13): list a file's versions, read one (ranges
// as for files), restore one, delete one. The owner's, or a recipient's of a
// file inside an item shared with them (restore needs a write grant; only the
// owner deletes); any other version id is 404, like any id that is not yours.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { requireAuth } from '../http/auth.js';
import type { AuthContext } from '../core/identity.js';
import type { VersionService } from './versions.js';
import { FileViewSchema, toFileView } from './views.js';
import { sendBytes } from './send.js';
import { accountHolder, type Transfers } from './transfers.js';
import { BYTES } from './download-routes.js';
import { Body, DateTime, Envelope, Nullable, StringEnum, View, errors } from '../http/contract.js';
import { FileId, Path, READ, WRITE } from './schemas.js';

const Source = View(
  {
    kind: StringEnum(['web', 'app', 'webdav', 'unknown'], { description: 'web: the web app or a first-party client; app: an OAuth app; webdav: a WebDAV client' }),
    name: Nullable('string', { description: "the app's name or the WebDAV device's (account's) name; null for web/unknown or when it was deleted" }),
  },
  { title: 'VersionSource' },
);
const VersionView = View(
  {
    id: Type.String({ description: "a version id; for the current content, the file's id" }),
    size: Type.Integer({ description: 'bytes' }),
    mime_type: Nullable('string'),
    created_at: DateTime,
    replaced_at: Nullable('string', { format: 'date-time', description: 'when it stopped being current (null for the current content); retention counts from here' }),
    current: Type.Boolean(),
    source: Source,
    author: Nullable('string', { description: "who wrote this content: the person's nickname, or their e-mail without one; null when unknown (written before authors were recorded, through an upload link, or the account is gone)" }),
  },
  { title: 'FileVersion' },
);

/** Who writes, as stored with the content (files.content_source); names are looked up when listed. */
export function writerOf(auth: AuthContext): string {
  return auth.clientId ? `app:${auth.clientId}` : 'web';
}

export function versionRoutes(app: FastifyInstance, versions: VersionService, transfers: Transfers): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const iso = (ms: number) => new Date(Number(ms)).toISOString();

  r.get(
    '/api/v4/file/versions',
    {
      config: READ,
      schema: {
        description: 'The versions of a file, newest first; the first is the current content (`current: true`).',
        querystring: Type.Object({ path: Path }),
        response: { 200: Envelope(Type.Array(VersionView)), ...errors(404) },
      },
    },
    async (request) => {
      const ownerId = requireAuth(request).user.id;
      const { file, versions: rows } = await versions.list(ownerId, request.query.path);
      const names = await versions.sourceNames(ownerId, [file.row.content_source, ...rows.map((v) => v.source)]);
      const authors = await versions.authorNames([file.row.content_author, ...rows.map((v) => v.author)]);
      const current = {
        id: file.row.id, size: Number(file.row.size), mime_type: file.row.mime_type, created_at: iso(file.row.updated_at), replaced_at: null, current: true,
        source: names(file.row.content_source), author: authors(file.row.content_author),
      };
      return ok([
        current,
        ...rows.map((v) => ({
          id: v.id, size: Number(v.size), mime_type: v.mime_type, created_at: iso(v.created_at), replaced_at: iso(v.archived_at), current: false, source: names(v.source), author: authors(v.author),
        })),
      ]);
    },
  );

  r.route({
    method: ['GET', 'HEAD'],
    url: '/api/v4/file/versions/:id/content',
    exposeHeadRoute: false,
    config: READ,
    schema: {
      description: "A version's bytes (Range, ETag, conditional requests as for /file/content).",
      params: Type.Object({ id: FileId }),
      querystring: Type.Object({ inline: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true'), Type.Literal('0'), Type.Literal('false')])) }),
      response: BYTES,
    },
    handler: async (request, reply) => {
      const user = requireAuth(request).user.id;
      const { version, file } = await versions.get(user, request.params.id);
      const inline = request.query.inline === '1' || request.query.inline === 'true';
      return sendBytes(request, reply, versions.sendable(version, file), { inline, hold: () => transfers.take('downloads', accountHolder(user)) });
    },
  });

  r.post(
    '/api/v4/file/versions/restore',
    {
      config: WRITE,
      schema: {
        description: 'Makes a version the current content; the current content becomes a version.',
        body: Body({ path: Path, version_id: FileId }),
        response: { 200: Envelope(FileViewSchema), ...errors(404) },
      },
    },
    async (request) => ok(toFileView(await versions.restore(requireAuth(request).user.id, request.body.path, request.body.version_id))),
  );

  r.delete(
    '/api/v4/file/versions/:id',
    {
      config: WRITE,
      schema: {
        description: "Deletes a version for good; its bytes stop counting toward the quota at once. Only the file's owner may (a recipient gets 403).",
        params: Type.Object({ id: FileId }),
        response: { 200: Envelope(View({ deleted: Type.Boolean() }, { title: 'VersionDeleted' })), ...errors(403, 404) },
      },
    },
    async (request) => {
      await versions.remove(requireAuth(request).user.id, request.params.id);
      return ok({ deleted: true });
    },
  );
}
