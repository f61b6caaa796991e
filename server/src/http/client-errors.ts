// Requests Node's HTTP parser refuses never reach a route: malformed request
// lines, bad header names or values (NUL included), obsolete line folding,
// bad chunk sizes, conflicting lengths, headers over the 16 KiB limit. Node
// (or Fastify's default) answers those with a body of its own; here they get
// the contract's envelope (api-contract §1) and the connection is closed,
// since the parser cannot tell where the next request would start.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../core/errors.js';
import { HttpError } from './errors.js';
import { baselineHeaderLines } from './baseline-headers.js';

interface ParserError extends Error {
  code?: string;
  /** llhttp's fixed description of what it found ("Invalid header value char"). */
  reason?: string;
}

function describe(err: ParserError): { status: number; msg: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, msg: 'Request headers are too large (at most 16 KiB)' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, msg: 'The request did not arrive in time' };
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, msg: 'Malformed request: invalid chunk size' };
    default: {
      // llhttp's reasons are fixed texts that never quote the request.
      const reason = typeof err.reason === 'string' && /^[\x20-\x7e]{1,120}$/.test(err.reason) ? err.reason : 'not valid HTTP/1.1';
      return { status: 400, msg: `Malformed request: ${reason}` };
    }
  }
}

/** Fastify's `clientErrorHandler`: the envelope instead of Fastify's own body. */
export function clientErrorHandler(this: FastifyInstance, err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, msg } = describe(err);
  this.log.info({ code: err.code, status }, msg);
  // A response already under way on this socket cannot be replaced.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    const body = JSON.stringify({ code: ErrorCode.ParamError, data: null, msg });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n${baselineHeaderLines()}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. Node answers it
 * itself with an empty body when `requireHostHeader` is on, so the app turns
 * that off and refuses such requests here, with the envelope.
 */
export function registerHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && raw.headers.host === undefined) {
      throw new HttpError(ErrorCode.ParamError, 'Host: header is required in HTTP/1.1', { Connection: 'close' });
    }
  });
}
