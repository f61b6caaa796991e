// The OCS envelope (api-contract §14) as the Nextcloud and ownCloud clients
// read it: `{ocs: {meta, data}}` as JSON with `?format=json` (or an Accept
// of JSON), XML otherwise. v1 says success with statuscode 100, v2 with 200;
// v2 puts the failure in the HTTP status too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeXml } from '../../webdav/xml.js';

export type OcsVersion = 1 | 2;
export type OcsValue = string | number | boolean | null | OcsValue[] | { [key: string]: OcsValue };

export function versionOf(request: FastifyRequest): OcsVersion {
  return request.url.startsWith('/ocs/v1.php') ? 1 : 2;
}

function wantsJson(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  if (format === 'json') return true;
  if (format === 'xml') return false;
  return /application\/json/i.test(request.headers.accept ?? '');
}

/** Elements named by the keys; array members as <element>, as Nextcloud writes them. */
function toXml(value: OcsValue, indent: string): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map((v) => `\n${indent}<element>${toXml(v, `${indent} `)}</element>`).join('') + `\n${indent.slice(1)}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return '';
    // A key that is no XML name (a number, say) becomes <element>, like Nextcloud does.
    return keys.map((k) => {
      const tag = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(k) ? k : 'element';
      return `\n${indent}<${tag}>${toXml(value[k]!, `${indent} `)}</${tag}>`;
    }).join('') + `\n${indent.slice(1)}`;
  }
  if (typeof value === 'boolean') return value ? '1' : '';
  return escapeXml(String(value));
}

export function sendOcs(request: FastifyRequest, reply: FastifyReply, data: OcsValue, failure?: { statuscode: number; http: number; message: string }): FastifyReply {
  const v = versionOf(request);
  const statuscode = failure ? failure.statuscode : v === 1 ? 100 : 200;
  const message = failure ? failure.message : 'OK';
  const meta = { status: failure ? 'failure' : 'ok', statuscode, message, totalitems: '', itemsperpage: '' };
  // v1 answers 200 for failures the client reads from the body; a missing route and a missing login are HTTP errors on both.
  const http = failure ? (v === 2 || failure.http === 401 || failure.http === 404 ? failure.http : 200) : 200;
  reply.code(http).header('Cache-Control', 'no-store');
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(JSON.stringify({ ocs: { meta, data: data ?? [] } }));
  const body = `<?xml version="1.0"?>\n<ocs>\n <meta>${toXml(meta, '  ')}</meta>\n <data>${toXml(data, '  ')}</data>\n</ocs>\n`;
  return reply.type('text/xml; charset=UTF-8').send(body);
}

export const OCS_NOT_FOUND = { statuscode: 998, http: 404, message: 'Invalid query, please check the syntax. API specifications are here: http://www.freedesktop.org/wiki/Specifications/open-collaboration-services.' };
export const OCS_UNAUTHORIZED = { statuscode: 997, http: 401, message: 'Current user is not logged in' };
