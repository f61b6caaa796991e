// One request must not freeze the server for everyone (issue 19, defect 1).
// A WebDAV body of deeply nested elements used to be refused at 64 levels
// only after the parser had read all of it, at a cost of depth² on the event
// loop (20,000 levels: seconds; the 1 MiB limit allows 150,000). Now the XML
// parser stops at the first element, attribute or node past its limits and is
// fed in pieces, and JSON bodies are pre-scanned for depth and number of
// values before JSON.parse. For each hostile shape, at the size limit (1 MiB),
// another client pings the server over its socket while the hostile request
// is processed; the worst ping must stay under 100 ms.
//
// Why a baseline: this runs on a shared 2-core machine where other processes
// can delay any ping by tens of milliseconds whatever Cirrus does. Before each
// hostile request the same ping loop runs alone for a moment; the bound is
// 100 ms above the worst baseline ping, so a loaded machine does not fail the
// test while a blocked event loop (seconds on the old code) still does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser } from '../files/helpers.js';
import { davPerson, type DavPerson } from '../webdav/helpers.js';

const MiB = 1024 * 1024;
const BOUND_MS = 100;
const BASELINE_MS = 400;

/** Repeats `unit` so that head + units + tail stays just under `size` bytes. */
function fill(head: string, unit: string | ((i: number) => string), tail: string, size = MiB - 64): string {
  const parts = [head];
  let length = head.length + tail.length;
  for (let i = 0; ; i++) {
    const u = typeof unit === 'string' ? unit : unit(i);
    if (length + u.length > size) break;
    parts.push(u);
    length += u.length;
  }
  parts.push(tail);
  return parts.join('');
}

function nested(head: string, open: string, close: string, inner: string, tail: string, size = MiB - 64): string {
  const n = Math.floor((size - head.length - tail.length - inner.length) / (open.length + close.length));
  return head + open.repeat(n) + inner + close.repeat(n) + tail;
}

const PROPFIND_HEAD = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>';
const PROPFIND_TAIL = '</D:prop></D:propfind>';

/** XML bodies at the 1 MiB limit, one per shape. */
const XML_SHAPES: Record<string, { body: string; status: number }> = {
  'deep nesting': { body: nested(PROPFIND_HEAD, '<a>', '</a>', '', PROPFIND_TAIL), status: 400 },
  'very many sibling elements': { body: fill(PROPFIND_HEAD, '<a/>', PROPFIND_TAIL), status: 400 },
  'very many attributes': { body: fill(`${PROPFIND_HEAD}<x`, (i) => ` a${i}=""`, `/>${PROPFIND_TAIL}`), status: 400 },
  'huge text': { body: fill(`${PROPFIND_HEAD}<x>`, 'abcdefghij', `</x>${PROPFIND_TAIL}`), status: 207 },
  'many namespace declarations': { body: fill(`${PROPFIND_HEAD}<x`, (i) => ` xmlns:p${i}="u:${i}"`, `/>${PROPFIND_TAIL}`), status: 400 },
  'many comments': { body: fill(PROPFIND_HEAD, '<!---->', PROPFIND_TAIL), status: 400 },
};

describe('a hostile body does not stall other clients (issue 19)', () => {
  let server: TestServer;
  let person: DavPerson;
  let token: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  function ping(): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/v4/site/ping`, { agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ping ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Pings back to back until `until` settles; the slowest round trip and how many were made. */
  async function pingWhile(until: Promise<unknown>): Promise<{ worst: number; count: number }> {
    let settled = false;
    void until.then(
      () => (settled = true),
      () => (settled = true),
    );
    let worst = 0;
    let count = 0;
    while (!settled) {
      const start = performance.now();
      await ping();
      worst = Math.max(worst, performance.now() - start);
      count++;
    }
    return { worst, count };
  }

  /** One raw request with a body over its own connection; the status and the body of the answer. */
  function send(method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}${path}`, { method, headers: { ...headers, 'content-length': String(body.length) }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * The worst ping while `run` is processed, against the bound and this
   * moment's baseline. A hiccup of the shared machine is random, a blocked
   * event loop is not: the measurement is tried up to three times and one
   * attempt within the bound passes (the old code blocked for seconds on
   * every attempt). Every attempt's answer must be right.
   */
  async function checkPings(what: string, run: () => Promise<{ status: number; text: string }>, check: (res: { status: number; text: string }) => void): Promise<void> {
    const seen: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const baseline = await pingWhile(new Promise((r) => setTimeout(r, BASELINE_MS)));
      const answer = run();
      const during = await pingWhile(answer);
      check(await answer);
      const limit = BOUND_MS + baseline.worst;
      const line = `worst ping ${during.worst.toFixed(1)} ms over ${during.count} pings (bound ${limit.toFixed(0)} ms = ${BOUND_MS} + baseline worst ${baseline.worst.toFixed(1)} ms over ${baseline.count} pings)`;
      console.log(`${what}, attempt ${attempt}: ${line}`);
      assert.ok(during.count > 0, 'pings ran while the request was processed');
      if (during.worst < limit) return;
      seen.push(line);
    }
    assert.fail(`${what}: other clients were stalled on every attempt: ${seen.join('; ')}`);
  }

  before(async () => {
    server = await startServer();
    person = await davPerson(server, { readonly: true });
    const api = new Api(server.url);
    token = (await newUser(api, await adminToken(api))).token;
    for (let i = 0; i < 20; i++) await ping(); // warm the connection and the route
  });
  after(async () => {
    agent.destroy();
    await server.close();
  });

  for (const [shape, { body, status }] of Object.entries(XML_SHAPES)) {
    it(`PROPFIND with ${shape} (1 MiB, a read-only account): other clients' pings stay fast, the answer is ${status}`, async () => {
      assert.ok(body.length > MiB - 1024 && body.length <= MiB, `the body is at the limit (${body.length})`);
      const bytes = Buffer.from(body);
      await checkPings(
        `PROPFIND ${shape}`,
        () => send('PROPFIND', '/dav/', { authorization: person.basic, depth: '0', 'content-type': 'application/xml' }, bytes),
        (res) => {
          assert.equal(res.status, status, res.text.slice(0, 300));
          if (status === 400) assert.match(res.text, /too large to process/);
        },
      );
    });
  }

  for (const method of ['PROPPATCH', 'LOCK']) {
    it(`${method} with deep nesting (1 MiB) is refused at the first element past 64 levels; pings stay fast`, async () => {
      const head = method === 'LOCK' ? '<D:lockinfo xmlns:D="DAV:"><D:owner>' : '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x>';
      const tail = method === 'LOCK' ? '</D:owner></D:lockinfo>' : '</x></D:prop></D:set></D:propertyupdate>';
      const body = nested(head, '<a>', '</a>', '', tail);
      // A write method: a read-write account (the read-only one is refused before its body is read).
      const rw = await davPerson(server);
      const bytes = Buffer.from(body);
      await checkPings(
        `${method} deep nesting`,
        () => send(method, '/dav/deep.txt', { authorization: rw.basic, 'content-type': 'application/xml' }, bytes),
        (res) => {
          assert.equal(res.status, 400, res.text.slice(0, 300));
          assert.match(res.text, /nested more than 64 levels deep/);
        },
      );
    });
  }

  const JSON_SHAPES: Record<string, string> = {
    'deeply nested arrays': nested('{"path":', '[', ']', '', ',"type":"folder"}'),
    'deeply nested objects': nested('{"path":', '{"a":', '}', '1', ',"type":"folder"}'),
    'a very wide object': fill('{', (i) => `"k${i}":0,`, '"path":"/wide","type":"folder"}'),
    'a very long array': fill('{"path":"/long","type":"folder","x":[', '0,', '0]}'),
  };
  for (const [shape, body] of Object.entries(JSON_SHAPES)) {
    it(`a JSON body of ${shape} (1 MiB) on the API is refused with 400/40001 before it is parsed; pings stay fast`, async () => {
      assert.ok(body.length > MiB - 1024 && body.length <= MiB, `the body is at the limit (${body.length})`);
      JSON.parse(body); // well-formed: only its shape is hostile
      const bytes = Buffer.from(body);
      await checkPings(
        `JSON ${shape}`,
        () => send('POST', '/api/v4/file/create', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, bytes),
        (res) => {
          assert.equal(res.status, 400, res.text.slice(0, 300));
          const envelope = JSON.parse(res.text) as { code: number; data: unknown; msg: string };
          assert.equal(envelope.code, 40001);
          assert.match(envelope.msg, /nested more than 64 levels deep|more than 20000 values/);
        },
      );
    });
  }

  it('brackets, braces and commas inside JSON strings are not counted', async () => {
    const name = `${'[{,'.repeat(70)}]}`;
    const res = await send('POST', '/api/v4/file/create', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, Buffer.from(`{"path":"/${name}","type":"folder"}`));
    assert.equal(res.status, 200, res.text);
    // An escaped quote does not end the string (a name may not hold '"', so a wrong password carries it).
    const password = `${'[{,'.repeat(70)}\\"]}`;
    const signIn = await send('POST', '/api/v4/session/token', { 'content-type': 'application/json' }, Buffer.from(`{"email":"nobody@example.com","password":"${password}"}`));
    assert.doesNotMatch(signIn.text, /nested more than 64 levels deep|more than 20000 values/);
    assert.notEqual(signIn.status, 500, signIn.text);
    assert.equal(JSON.parse(signIn.text).code !== 40001 || !/JSON/.test(signIn.text), true, signIn.text);
  });
});
