// Sends bytes (a file, or a folder as a zip) with validators, conditional
// requests and single byte ranges. Shared by every download route (the API,
// signed URLs, and share links).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode } from '../core/errors.js';
import { HttpError } from '../http/errors.js';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';
import { contentDisposition, evaluatePreconditions, evaluateRange, ifRangeAllows } from './http-range.js';
import type { ByteRange } from './storage/driver.js';
import { FILE } from './repository.js';
import { DEFAULT_MIME, isInlineSafe, servedType } from './mime.js';
import type { Entry } from './tree.js';
import type { FilesService } from './service.js';
import type { ZipArchive } from './zip.js';

export interface Sendable {
  size: number;
  etag: string;
  lastModified: number;
  mime: string;
  filename: string;
  open(range?: ByteRange): Promise<Readable>;
  /** A URL of the object store to redirect a GET to (presigned downloads), or null. */
  directUrl?(headers: { contentDisposition: string; contentType: string }): Promise<string | null>;
}

export interface SendOptions {
  /** Ask for inline display; honoured only for types that cannot run script. */
  inline?: boolean;
  cacheControl?: string;
  /**
   * Takes a download slot of the asker (files/transfers.ts) just before the
   * bytes go out, throwing 429 past the limit; the slot is given back when
   * the response ends. Answers without a body (HEAD, 304, a redirect to the
   * store) take none.
   */
  hold?: () => () => void;
}

/** A file entry as something to send. */
export function fileSendable(files: FilesService, entry: Entry): Sendable {
  if (entry.row.kind !== FILE) throw new DomainError(ErrorCode.ParamError, 'path: is a folder, not a file');
  return {
    size: entry.row.size,
    // Blobs are immutable: the blob id is a strong validator. Empty files have no blob.
    etag: `"${entry.row.blob_id ?? 'empty'}"`,
    lastModified: entry.row.updated_at,
    mime: entry.row.mime_type ?? DEFAULT_MIME,
    filename: entry.row.name,
    open: (range) => files.openRead(entry, range),
    directUrl: (headers) => files.directUrl(entry, headers),
  };
}

export function zipSendable(zip: ZipArchive, name: string): Sendable {
  return {
    size: zip.size,
    etag: zip.etag,
    lastModified: zip.lastModified,
    mime: 'application/zip',
    filename: `${name}.zip`,
    open: async (range) => zip.stream(range),
  };
}

export async function sendBytes(request: FastifyRequest, reply: FastifyReply, item: Sendable, options: SendOptions = {}): Promise<FastifyReply> {
  const validators = { etag: item.etag, lastModified: item.lastModified };
  reply.header('ETag', item.etag);
  reply.header('Last-Modified', new Date(item.lastModified).toUTCString());
  reply.header('Accept-Ranges', 'bytes');
  reply.header('Cache-Control', options.cacheControl ?? 'private, no-cache');
  // User content is never a page of ours: no sniffing, no script, even when opened inline.
  reply.headers(USER_CONTENT_HEADERS);

  const pre = evaluatePreconditions(request.headers, validators);
  if (pre === 'not-modified') return reply.code(304).send();
  if (pre === 'failed') throw new DomainError(ErrorCode.Conflict, 'Precondition failed: the file has changed', { kind: 'precondition_failed' });

  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRangeAllows(typeof ifRange === 'string' ? ifRange : undefined, validators) ? request.headers.range : undefined;
  const range = evaluateRange(rangeHeader, item.size);
  if (range.kind === 'unsatisfiable') {
    throw new HttpError(ErrorCode.ParamError, 'Range not satisfiable', { 'Content-Range': `bytes */${item.size}` }, { kind: 'range_not_satisfiable' });
  }
  // Script-capable types (JavaScript, HTML, SVG, CSS, ...) go out as application/octet-stream (mime.ts servedType).
  const type = servedType(item.mime);
  const inline = options.inline === true && isInlineSafe(type);
  const disposition = contentDisposition(inline ? 'inline' : 'attachment', item.filename);
  if (request.method === 'GET' && item.directUrl) {
    // Authorization and preconditions are done: the store sends the bytes
    // (and answers Range itself), with the headers Cirrus would have sent.
    const url = await item.directUrl({ contentDisposition: disposition, contentType: type });
    if (url) return reply.code(302).header('Location', url).header('Content-Length', '0').send();
  }
  reply.header('Content-Type', type);
  reply.header('Content-Disposition', disposition);
  let length = item.size;
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    length = end - start + 1;
    reply.code(206).header('Content-Range', `bytes ${start}-${end}/${item.size}`);
  }
  reply.header('Content-Length', String(length));
  if (request.method === 'HEAD') return reply.send();
  const release = options.hold?.();
  if (!release) return reply.send(await item.open(range.kind === 'partial' ? range.range : undefined));
  reply.raw.once('close', release);
  try {
    return reply.send(await item.open(range.kind === 'partial' ? range.range : undefined));
  } catch (err) {
    release();
    throw err;
  }
}
