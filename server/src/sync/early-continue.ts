// An interim 100 (Continue) for a desktop sync client's PUT, sent as soon as
// its headers are read (RFC 9110 §15.2: a client must be able to parse a 1xx
// response it did not ask for).
//
// Why: the desktop clients write a PUT's headers and its body separately,
// with Nagle's algorithm on, so a small body is held back until the server
// acknowledges the headers; a Linux server delays that acknowledgement by up
// to 40 ms when it has nothing to send (Windows by 200). Each small file of a
// sync cost those 40 ms whatever the server did: 2,000 files of 4 KiB took
// about 17 s against Apache mod_dav and 20 s against Cirrus, and about 8 and
// 13 s with acknowledgements made immediate on the loopback route
// (docs/features/sync.md). The interim answer carries the
// acknowledgement at once, so the body follows at once.
//
// Only for the desktop clients (their User-Agent names their sync engine,
// "mirall" or "csyncoC", as Nextcloud's own client detection reads it): they
// read an unrequested 100 and go on, which `nextcloudcmd` and `owncloudcmd`
// show in the sync-client tests. Other clients may not: Node's fetch (undici)
// drops the connection on one.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const DESKTOP_CLIENT = /\b(mirall|csyncoC)\//;

/** Whether this request gets an interim 100 before its body is read. */
function wantsEarlyContinue(method: string, headers: FastifyRequest['headers']): boolean {
  if (method !== 'PUT') return false;
  // Expect: 100-continue is answered by Node itself.
  if (headers.expect !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || length === '0') return false;
  return DESKTOP_CLIENT.test(headers['user-agent'] ?? '');
}

/** Route hook (onRequest): before authentication, so the body is on its way while the request is checked. */
export function earlyContinue(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (wantsEarlyContinue(request.method, request.headers)) reply.raw.writeContinue();
  done();
}
