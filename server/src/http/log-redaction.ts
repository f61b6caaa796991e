// What a log line shows of a request. URLs are logged, and a client may put a
// credential in the query string (RFC 6750 §2.3 `access_token`, which we do
// not accept, or a refresh token or secret by mistake); the values of such
// parameters are masked before the line is written. Headers and bodies are
// not logged at all.
import type { FastifyRequest } from 'fastify';

const SENSITIVE_PARAM = /token|secret|password|passwd|code|key|signature/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        return `${pair.slice(0, eq)}=[redacted]`;
      }
      return SENSITIVE_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
