// Requests that Node's HTTP parser refuses (RFC 9112) still get the contract's
// envelope (api-contract §1): {code: 40001, data: null, msg} with 400, or 431
// for headers over the limit. Sent byte for byte over raw sockets, since no
// HTTP client will produce them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../helpers/harness.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `bytes`, then reads until the server closes (or 10 s pass). */
function rawExchange(server: TestServer, bytes: (string | Buffer)[]): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 10 s')), 10_000);
    socket.on('connect', () => {
      for (const b of bytes) socket.write(b);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]), headers, body: text.slice(split + 4) });
    });
  });
}

function assertEnvelope(res: RawAnswer, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: status (${res.body.slice(0, 200)})`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, `${what}: JSON`);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'msg'], `${what}: envelope`);
  assert.equal(body.code, 40001, what);
  assert.equal(body.data, null, what);
  assert.equal(typeof body.msg, 'string');
  assert.ok((body.msg as string).length > 0, `${what}: says what is wrong`);
  assert.doesNotMatch(res.body, /"error"|statusCode/, `${what}: not Fastify's own body`);
}

describe('HTTP parser errors answer the envelope (RFC 9112)', () => {
  let server: TestServer;
  let host: string;

  before(async () => {
    server = await startServer();
    host = new URL(server.url).host;
  });
  after(() => server.close());

  it('a well-formed raw request still works (the harness itself is sound)', async () => {
    const res = await rawExchange(server, [`GET /api/v4/site/ping HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`]);
    assert.equal(res.status, 200, res.body);
  });

  const cases: [string, () => (string | Buffer)[], number][] = [
    ['RFC 9112 §3: a malformed request line', () => ['GET /api/v4/site/ping HTTP/1.1 extra\r\nHost: x\r\n\r\n'], 400],
    ['RFC 9112 §3: a request line that is not HTTP at all', () => ['\x01\x02garbage\r\n\r\n'], 400],
    ['RFC 9112 §3.2: an invalid method token', () => ['G(T / HTTP/1.1\r\nHost: x\r\n\r\n'], 400],
    ['RFC 9110 §5.1: a header name with a space', () => [`GET /api/v4/site/ping HTTP/1.1\r\nHost: ${host}\r\nBad Header: x\r\n\r\n`], 400],
    ['RFC 9110 §5.5: NUL in a header value', () => [`GET /api/v4/site/ping HTTP/1.1\r\nHost: ${host}\r\nX-A: a\0b\r\n\r\n`], 400],
    ['RFC 9112 §5.2: obsolete line folding', () => [`GET /api/v4/site/ping HTTP/1.1\r\nHost: ${host}\r\nX-A: a\r\n  b\r\n\r\n`], 400],
    [
      'RFC 9112 §7.1: an invalid chunk size',
      () => [`POST /api/v4/session/token HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
      400,
    ],
    ['RFC 9112 §6.3: Content-Length that is not a number', () => [`POST /api/v4/session/token HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`], 400],
    [
      'RFC 9112 §6.3: Content-Length together with Transfer-Encoding',
      () => [`POST /api/v4/session/token HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      400,
    ],
    ['RFC 6585 §5: headers over 16 KiB', () => [`GET /api/v4/site/ping HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`], 431],
    ['RFC 9112 §3.2: an HTTP/1.1 request without Host', () => ['GET /api/v4/site/ping HTTP/1.1\r\nConnection: close\r\n\r\n'], 400],
  ];
  for (const [name, bytes, status] of cases) {
    it(`${name} -> ${status} with the envelope`, async () => {
      assertEnvelope(await rawExchange(server, bytes()), status, name);
    });
  }

  it('the server goes on answering after all of them', async () => {
    const res = await fetch(`${server.url}/api/v4/site/ping`);
    assert.equal(res.status, 200);
  });
});
