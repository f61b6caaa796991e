// Opening one Server-Sent Events stream on a hub: the slot taken before the
// first await, the start read, the headers, and the slot given back however
// the request ends. Shared by the change feed and the notifications stream.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../core/identity.js';
import { FeedStream, type FeedHub } from './hub.js';

/** The token as the guard took it (a DPoP-bound one too: the check round rechecks it by itself). */
const TOKEN = /^(?:Bearer|DPoP) +(\S+)\s*$/i;

/** Where a new stream starts, and what it is told first (e.g. a `reset` event). */
export interface StreamStart {
  from: number;
  preamble?: string;
}

export async function serveStream(hub: FeedHub, request: FastifyRequest, reply: FastifyReply, auth: AuthContext, start: () => Promise<StreamStart>): Promise<FastifyReply> {
  const userId = auth.user.id;
  const token = TOKEN.exec(request.headers.authorization ?? '')?.[1] ?? '';
  // Before any await: parallel opens cannot pass the limits together.
  const release = hub.reserve(userId, token);
  const state: { stream?: FeedStream; gone: boolean } = { gone: false };
  // The client went away (or the answer ended, an error included): forget the stream, or give its slot back.
  reply.raw.once('close', () => {
    state.gone = true;
    if (state.stream) hub.end(state.stream);
    else release();
  });
  let begin: StreamStart;
  try {
    begin = await start();
  } catch (err) {
    release();
    throw err;
  }
  const out = new PassThrough();
  out.write('retry: 2000\n\n');
  if (begin.preamble) out.write(begin.preamble);
  const exp = typeof auth.claims.exp === 'number' ? auth.claims.exp * 1000 : Number.MAX_SAFE_INTEGER;
  const stream = new FeedStream(userId, begin.from, token, exp, out, release);
  state.stream = stream;
  hub.add(stream);
  // Gone while the start was read: nothing will close it later.
  if (state.gone) hub.end(stream);
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    // Proxies (nginx) must pass each event on at once.
    .header('x-accel-buffering', 'no')
    .send(out);
}
