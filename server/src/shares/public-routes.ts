// Share links without an account (docs/api.md, "Shares"): page data, unlock,
// browsing inside a shared folder, and downloads at /s/:id. None of these
// routes reads the Authorization header; a password-protected share wants an
// unlock token in `?token=` or the `X-Share-Token` header.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { FOLDER } from '../files/service.js';
import type { FilesService } from '../files/service.js';
import { evaluatePreconditions, evaluateRange, ifRangeAllows } from '../files/http-range.js';
import { fileSendable, sendBytes, zipSendable, type Sendable } from '../files/send.js';
import { linkHolder } from '../files/transfers.js';
import type { PageSender } from '../http/pages.js';
import type { ShareAccess } from './access.js';
import { archiveWithoutLocation, withoutLocation } from './location.js';
import { OfferedPassword, PageToken, Path, PUBLIC, ShareIdParams, UnlockToken } from './schemas.js';
import { Body, DateTime, Envelope, Nullable, View, errors } from '../http/contract.js';
import { PublicShareViewSchema, SharedItemViewSchema } from './views.js';

const TOKEN_HEADER = 'x-share-token';

function tokenOf(request: FastifyRequest, fromQuery: string | undefined): string | undefined {
  if (fromQuery !== undefined) return fromQuery;
  const header = request.headers[TOKEN_HEADER];
  return typeof header === 'string' && header.length > 0 && header.length <= 128 ? header : undefined;
}

/**
 * Whether this request is a download that uses one of the share's downloads
 * (docs/api.md, "Counting"): a GET that will send a body (neither 304, 412
 * nor 416), is not a preview (`inline`), and sends the item's last byte:
 * the whole item (200), or a range that runs to the end from a chosen start
 * (`bytes=0-`, or `bytes=N-` resuming a download). A range that stops short
 * of the end (a seek, one segment of a split download) and a suffix range
 * (`bytes=-N`, a reader probing the end of a file) are not counted.
 */
function countsAsDownload(request: FastifyRequest, item: Sendable, inline: boolean): boolean {
  if (request.method !== 'GET' || inline) return false;
  const validators = { etag: item.etag, lastModified: item.lastModified };
  if (evaluatePreconditions(request.headers, validators) !== 'proceed') return false;
  const ifRange = request.headers['if-range'];
  const range = ifRangeAllows(typeof ifRange === 'string' ? ifRange : undefined, validators) ? request.headers.range : undefined;
  const result = evaluateRange(range, item.size);
  if (result.kind === 'full') return true;
  if (result.kind === 'unsatisfiable') return false;
  return result.range.end === item.size - 1 && !/^\s*bytes\s*=\s*-/i.test(range ?? '');
}

const SharedFolderPage = View(
  { files: Type.Array(SharedItemViewSchema), next_page_token: Nullable('string'), parent: SharedItemViewSchema },
  { title: 'SharedFolderPage' },
);
const Unlocked = View({ token: Type.String({ description: 'send as ?token= or X-Share-Token' }), expires_at: DateTime }, { title: 'ShareUnlock' });

const Inline = Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true'), Type.Literal('0'), Type.Literal('false')]));
/** `download=1` asks for the bytes even from a browser navigation (the share page's own links). */
const Download = Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true')]));

/**
 * api-contract §10: a browser navigation (a GET whose Accept names text/html)
 * without a path, download or inline parameter gets the share page; every
 * other request (curl, wget, scripts, <img>, the page's own links) keeps
 * getting the bytes.
 */
function wantsPage(request: FastifyRequest, q: { path?: string; download?: string; inline?: string }): boolean {
  if (request.method !== 'GET' || q.path !== undefined || q.download !== undefined || q.inline !== undefined) return false;
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

export function publicShareRoutes(app: FastifyInstance, access: ShareAccess, files: FilesService, sendPage?: PageSender): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v4/share/info/:id',
    {
      config: PUBLIC,
      schema: {
        description: 'What a share page shows (name and size withheld until a password-protected share is unlocked).',
        params: ShareIdParams,
        querystring: Type.Object({ token: Type.Optional(UnlockToken) }),
        response: { 200: Envelope(PublicShareViewSchema), ...errors(404) },
      },
    },
    async (request) => ok(await access.info(request.params.id, tokenOf(request, request.query.token))),
  );

  r.post(
    '/api/v4/share/unlock/:id',
    {
      config: { ...PUBLIC, issuesCredentials: true },
      schema: { params: ShareIdParams, body: Body({ password: OfferedPassword }), response: { 200: Envelope(Unlocked), ...errors(403, 404, 429) } },
    },
    async (request) => {
      const unlocked = await access.unlock(request.params.id, request.body.password, request.ip);
      return ok(unlocked);
    },
  );

  r.get(
    '/api/v4/share/list/:id',
    {
      config: PUBLIC,
      schema: {
        params: ShareIdParams,
        querystring: Type.Object({
          path: Type.Optional(Path),
          token: Type.Optional(UnlockToken),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
          next_page_token: Type.Optional(PageToken),
        }),
        response: { 200: Envelope(SharedFolderPage), ...errors(403, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await access.browse(request.params.id, q.path, tokenOf(request, q.token), q.page_size ?? 100, q.next_page_token));
    },
  );

  r.route({
    method: ['GET', 'HEAD'],
    url: '/s/:id',
    exposeHeadRoute: false,
    config: PUBLIC,
    schema: { params: ShareIdParams, querystring: Type.Object({ path: Type.Optional(Path), token: Type.Optional(UnlockToken), inline: Inline, download: Download }) },
    handler: async (request, reply) => {
      const q = request.query;
      if (sendPage && wantsPage(request, q)) return sendPage(reply);
      const { entry, open } = await access.item(request.params.id, q.path, tokenOf(request, q.token));
      // GPS is not shown to people with the link unless the owner chose to show it: not in a picture, nor in any picture of a folder's ZIP.
      const placesPrivate = open.share.strip_location !== 0;
      let item = entry.row.kind === FOLDER ? zipSendable(await files.archive(entry, placesPrivate ? archiveWithoutLocation : undefined), entry.row.name) : fileSendable(files, entry);
      if (placesPrivate && entry.row.kind !== FOLDER) item = await withoutLocation(item);
      const inline = q.inline === '1' || q.inline === 'true';
      // A stranger's downloads count against the link, never the owner's own budget (files/transfers.ts).
      const hold = () => files.transfers.take('downloads', linkHolder(request.params.id));
      if (!countsAsDownload(request, item, inline)) return sendBytes(request, reply, item, { inline, hold });
      // Taken before the first byte (concurrent downloads never exceed the
      // limit) and given back when the response does not finish sending.
      const id = request.params.id;
      await access.claimDownload(id);
      // The owner's history of the item (activity/); a failure to write it never fails the download.
      files.noteAccess(entry.row, 'link_downloaded', { anonymous: true, name: null }).catch((err: unknown) => request.log.warn({ err }, 'share download: recording the activity failed'));
      let finished = false;
      let released = false;
      const release = () => {
        if (finished || released) return;
        released = true;
        access.releaseDownload(id).catch((err: unknown) => request.log.warn({ err }, 'share download: giving back an unfinished download failed'));
      };
      reply.raw.once('finish', () => {
        finished = true;
        access.downloaded(id);
      });
      reply.raw.once('close', release);
      try {
        return await sendBytes(request, reply, item, { inline, hold });
      } catch (err) {
        release();
        throw err;
      }
    },
  });
}
