// Compression of JSON answers (@fastify/compress): Brotli or gzip, as the
// client's Accept-Encoding allows, for a serialized JSON body of 1 KB or more.
// Everything else goes out as it is: file downloads, ranges and 206s, ZIPs,
// thumbnails, WebDAV bodies, server-sent events, and anything already encoded
// (all of these are streams or buffers, or carry a Content-Disposition,
// Content-Range or Content-Encoding). The web app's assets are compressed once
// at build time instead (web.ts). Answers that hand out a credential
// (`config.issuesCredentials`) are never compressed, so no secret shares a
// compression window with text a third party chose (BREACH).
import compress from '@fastify/compress';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const COMPRESS_MIN_BYTES = 1024;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** True when the answer is a JSON text this module may compress. */
export function isCompressibleJson(request: FastifyRequest, reply: FastifyReply, payload: unknown): boolean {
  if (typeof payload !== 'string' || Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return false;
  if (!JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return false;
  if (reply.statusCode === 206 || reply.hasHeader('content-range') || reply.hasHeader('content-disposition') || reply.hasHeader('content-encoding')) return false;
  return !((request.routeOptions.config ?? {}) as FastifyContextConfig).issuesCredentials;
}

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Instance hooks run before the route hooks @fastify/compress adds, so this
  // decides first; the plugin's documented per-request switch is the
  // x-no-compression request header.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isCompressibleJson(request, reply, payload)) {
      // The answer depends on Accept-Encoding whether or not this client accepts an encoding.
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    } else {
      request.headers['x-no-compression'] = '1';
    }
    return payload;
  });
  await app.register(compress, {
    global: true,
    // Request bodies are taken as they come (a WebDAV PUT with Content-Encoding stores those bytes).
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_MIN_BYTES,
    customTypes: JSON_TYPE,
  });
}
