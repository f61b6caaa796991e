// Serves the built web app (web/dist) and its single-page routes, such as the
// authorization page at /session/authorize. API paths never fall through to it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import type { Config } from './config.js';
import { sendError } from './http/error-handler.js';
import { DomainError, ErrorCode } from './core/errors.js';
import { PAGE_HEADERS, pageCsp, type PageSender } from './http/pages.js';

export type { PageSender } from './http/pages.js';

const readIfExists = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);

/** The encoding of a precompressed copy the request accepts (br before gzip), or undefined. */
export function acceptedEncoding(header: string | string[] | undefined, available: { br?: unknown; gzip?: unknown }): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name) accepted.set(name, q ? Number(q[1]) : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (available.br && allows('br')) return 'br';
  if (available.gzip && allows('gzip')) return 'gzip';
  return undefined;
}

/** `imageOrigins`: origins the page may load images from beyond the fixed ones (the map tiles an administrator set). */
export function indexPageSender(config: Config, imageOrigins: () => Promise<string[]> = async () => []): PageSender {
  const indexFile = path.join(config.webDir, 'index.html');
  const indexHtml = readIfExists(indexFile);
  // The build's precompressed copies (web/build/precompress.ts), when they are there.
  const encoded = { br: readIfExists(indexFile + '.br'), gzip: readIfExists(indexFile + '.gz') };
  return async (reply, status = 200) => {
    if (!indexHtml) return sendError(reply, new DomainError(ErrorCode.NotFound, 'The web app is not built; run npm run build'));
    const extra = await imageOrigins();
    reply
      .code(status)
      .headers(PAGE_HEADERS)
      .header('Content-Security-Policy', extra.length ? pageCsp(extra) : PAGE_HEADERS['Content-Security-Policy']!)
      .type('text/html; charset=utf-8')
      .header('Vary', 'Accept-Encoding');
    const encoding = acceptedEncoding(reply.request.headers['accept-encoding'], encoded);
    if (encoding) return reply.header('Content-Encoding', encoding).send(encoded[encoding]);
    return reply.send(indexHtml);
  };
}

export async function webApp(app: FastifyInstance, config: Config, sendIndex: PageSender = indexPageSender(config)): Promise<void> {
  const hasWeb = existsSync(path.join(config.webDir, 'index.html'));
  if (hasWeb) {
    // The plugin's own routes cannot declare `config.auth`, so the auth guard
    // would demand a token for every script and stylesheet; serve them from a
    // route of ours instead.
    // preCompressed: the build's .br/.gz copy when Accept-Encoding allows it, with Vary: Accept-Encoding.
    await app.register(fastifyStatic, { root: path.join(config.webDir, 'assets'), serve: false, preCompressed: true });
    // Vite writes flat, content-hashed names; anything else (a path, `..`) is a bad request.
    const AssetName = Type.Object({ '*': Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 200 }) });
    app.get('/assets/*', { config: { auth: 'none' }, schema: { params: AssetName } }, (request, reply) =>
      reply.sendFile((request.params as { '*': string })['*'], { immutable: true, maxAge: '365d' }),
    );
  }

  // /session/authorize is the OAuth feature's route: it validates the request before serving this page.
  for (const page of ['/']) app.get(page, { config: { auth: 'none' } }, (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0]!;
    const isPage = request.method === 'GET' && !url.startsWith('/api/') && !url.startsWith('/assets/') && !url.startsWith('/.well-known/');
    if (isPage) return sendIndex(reply);
    return sendError(reply, new DomainError(ErrorCode.NotFound, `No route for ${request.method} ${url}`));
  });
}
