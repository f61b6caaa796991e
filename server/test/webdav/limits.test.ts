// WebDAV limits that must hold under parallel requests and across copies
// (issue 19): the cap on one person's locks is exact however many LOCKs run
// at once (PostgreSQL granted 1,005–1,026 before), two exclusive LOCKs of one
// resource are never both granted, and dead properties count against the
// quota (see the properties tests below).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { davPerson, dav, PROPFIND_ALL, type DavPerson } from './helpers.js';
import { PROPERTY_LIMITS } from '../../src/webdav/properties.js';

const LOCKINFO =
  '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
const CAP = 1000;

/** A person whose Basic credential is verified once (parallel first attempts are throttled like guessing). */
async function warmPerson(server: TestServer): Promise<DavPerson> {
  const p = await davPerson(server);
  assert.equal((await dav(server, 'PROPFIND', '/dav/', p.basic, { headers: { depth: '0' } })).status, 207);
  return p;
}

/** Runs `task(i)` for i in [0, n) with `width` running at once. */
async function parallel<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < n; i = next++) out[i] = await task(i);
    }),
  );
  return out;
}

describe('WebDAV limits (issue 19)', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it(`RFC 4918 §9.10, §11.5: ${CAP + 40} LOCKs, 40 at a time, grant exactly ${CAP} locks; the rest are 507`, async () => {
    const p = await warmPerson(server);
    const answers = await parallel(CAP + 40, 40, (i) => dav(server, 'LOCK', `/dav/lock-${i}.txt`, p.basic, { body: LOCKINFO }));
    const statuses = answers.map((a) => a.status);
    const odd = answers.filter((a) => ![200, 201, 507].includes(a.status)).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
    assert.deepEqual(odd, [], 'every LOCK is granted or 507');
    const granted = statuses.filter((s) => s === 200 || s === 201).length;
    const refused = statuses.filter((s) => s === 507).length;
    assert.deepEqual({ granted, refused, other: statuses.length - granted - refused }, { granted: CAP, refused: 40, other: 0 });
    // And the cap is what the server holds: one more is refused, one UNLOCK makes room for exactly one.
    assert.equal((await dav(server, 'LOCK', '/dav/one-more.txt', p.basic, { body: LOCKINFO })).status, 507);
    const held = await dav(server, 'PROPFIND', '/dav/lock-0.txt', p.basic, { headers: { depth: '0' } });
    const token = /<D:locktoken><D:href>([^<]+)<\/D:href>/.exec(held.text)?.[1];
    if (token) {
      assert.equal((await dav(server, 'UNLOCK', '/dav/lock-0.txt', p.basic, { headers: { 'lock-token': `<${token}>` } })).status, 204);
      const again = await parallel(10, 10, async (i) => (await dav(server, 'LOCK', `/dav/again-${i}.txt`, p.basic, { body: LOCKINFO })).status);
      assert.equal(again.filter((s) => s === 201).length, 1, `after one UNLOCK exactly one more lock: ${again.join(',')}`);
    } else {
      // lock-0 was among the refused ones: then some other URL holds a lock; the count above already proves the cap.
      assert.ok(statuses[0] === 507);
    }
  });

  it('RFC 4918 §6.1, §9.10.5: 20 parallel exclusive LOCKs of one file grant exactly one; the others are 423 no-conflicting-lock', async () => {
    const p = await warmPerson(server);
    assert.equal((await dav(server, 'PUT', '/dav/shared.txt', p.basic, { body: 'x' })).status, 201);
    const answers = await parallel(20, 20, (_i) => dav(server, 'LOCK', '/dav/shared.txt', p.basic, { body: LOCKINFO }));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 423).length, 19, statuses.join(','));
    for (const a of answers.filter((x) => x.status === 423)) assert.match(a.text, /no-conflicting-lock/);
  });

  const KiB = 1024;
  const proppatch = (props: string) =>
    `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:X="urn:x"><D:set><D:prop>${props}</D:prop></D:set></D:propertyupdate>`;
  const big = (local: string, bytes: number) => `<X:${local}>${'a'.repeat(bytes)}</X:${local}>`;

  it(`RFC 4918 §9.2.1: dead properties of one resource are limited to ${PROPERTY_LIMITS.resourceBytes} bytes; past that PROPPATCH is 207 with 507 for the properties and nothing is stored`, async () => {
    const p = await warmPerson(server);
    assert.equal((await dav(server, 'PUT', '/dav/empty.txt', p.basic, { body: '' })).status, 201);
    // The report's attack: about 800 KB a PROPPATCH, four times.
    for (let i = 0; i < 4; i++) {
      const res = await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big(`p${i}`, 800 * KiB)) });
      assert.equal(res.status, 207);
      assert.match(res.text, /<D:prop><X:p\d xmlns:X="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 507 Insufficient Storage<\/D:status>/);
      assert.match(res.text, /limited to 65536 bytes/);
    }
    let all = await dav(server, 'PROPFIND', '/dav/empty.txt', p.basic, { headers: { depth: '0' }, body: PROPFIND_ALL });
    assert.ok(all.text.length < 4 * KiB, `nothing was stored (${all.text.length} bytes of PROPFIND)`);
    // Within the limit: 30 KiB, then 30 KiB more; a third 30 KiB is one too many, and changes nothing (§9.2: all or nothing).
    assert.match((await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('a', 30 * KiB)) })).text, /200 OK/);
    assert.match((await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('b', 30 * KiB)) })).text, /200 OK/);
    const third = await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('c', 30 * KiB) + big('d', 1)) });
    assert.match(third.text, /507 Insufficient Storage/);
    all = await dav(server, 'PROPFIND', '/dav/empty.txt', p.basic, { headers: { depth: '0' }, body: PROPFIND_ALL });
    // (Test with .test(): a failed match would print 60 KiB of the body.)
    assert.ok(/<ns0:a xmlns:ns0="urn:x">a{30720}<\/ns0:a>/.test(all.text), 'the first property is stored whole');
    assert.ok(/<ns0:b xmlns:ns0="urn:x">a{30720}<\/ns0:b>/.test(all.text), 'the second property is stored whole');
    assert.ok(!/<ns0:[cd] /.test(all.text), 'nothing of the refused PROPPATCH is stored');
    // Replacing a property by a bigger one counts only the difference; a smaller one always goes.
    assert.match((await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('a', 33 * KiB)) })).text, /200 OK/);
    assert.match((await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('a', 40 * KiB)) })).text, /507 Insufficient Storage/);
    assert.match((await dav(server, 'PROPPATCH', '/dav/empty.txt', p.basic, { body: proppatch(big('a', 1)) })).text, /200 OK/);
  });

  /** Fills one person's dead properties with 16 files of 60 KiB in /p and copies of /p, up to less than one folder's worth below the cap. */
  async function nearCap(p: DavPerson): Promise<{ copies: number; perFolder: number; room: number }> {
    assert.equal((await dav(server, 'MKCOL', '/dav/p', p.basic)).status, 201);
    const files = 16;
    for (let i = 0; i < files; i++) {
      assert.equal((await dav(server, 'PUT', `/dav/p/f${i}.txt`, p.basic, { body: 'x' })).status, 201);
      assert.match((await dav(server, 'PROPPATCH', `/dav/p/f${i}.txt`, p.basic, { body: proppatch(big('big', 60 * KiB)) })).text, /200 OK/);
    }
    // What one property costs, from the value as stored (returned as is by PROPFIND).
    const stored = /<ns0:big xmlns:ns0="urn:x">a+<\/ns0:big>/.exec((await dav(server, 'PROPFIND', '/dav/p/f0.txt', p.basic, { headers: { depth: '0' }, body: PROPFIND_ALL })).text)?.[0];
    assert.ok(stored, 'the property is there');
    const perFolder = files * (Buffer.byteLength('{urn:x}big') + Buffer.byteLength(stored));
    const copies = Math.floor(PROPERTY_LIMITS.userBytes / perFolder) - 1;
    for (let k = 0; k < copies; k++) assert.equal((await dav(server, 'COPY', '/dav/p/', p.basic, { headers: { destination: `/dav/copy-${k}/` } })).status, 201, `copy ${k}`);
    return { copies, perFolder, room: PROPERTY_LIMITS.userBytes - (copies + 1) * perFolder };
  }

  it(`RFC 4918 §9.8.5: copies count; one person's dead properties stop at ${PROPERTY_LIMITS.userBytes} bytes and a COPY past that is 507 and copies nothing`, async () => {
    const p = await warmPerson(server);
    const { room } = await nearCap(p);
    const refused = await dav(server, 'COPY', '/dav/p/', p.basic, { headers: { destination: '/dav/one-too-many/' } });
    assert.equal(refused.status, 507, refused.text);
    assert.match(refused.text, /limited to 16777216 bytes/);
    assert.equal((await dav(server, 'PROPFIND', '/dav/one-too-many/', p.basic, { headers: { depth: '0' } })).status, 404, 'nothing was copied');
    // A copy of a file without properties still works, and so does a new property that fits.
    assert.equal((await dav(server, 'PUT', '/dav/plain.txt', p.basic, { body: 'x' })).status, 201);
    assert.equal((await dav(server, 'COPY', '/dav/plain.txt', p.basic, { headers: { destination: '/dav/plain-2.txt' } })).status, 201);
    assert.ok(room > 1024);
    assert.match((await dav(server, 'PROPPATCH', '/dav/plain.txt', p.basic, { body: proppatch(big('small', 100)) })).text, /200 OK/);
    assert.match((await dav(server, 'PROPPATCH', '/dav/plain.txt', p.basic, { body: proppatch(big('large', room)) })).text, /507 Insufficient Storage/);
  });

  it("RFC 4918 §9.2.1: parallel PROPPATCHes near the person's cap store exactly what fits; the others are 507", async () => {
    const p = await warmPerson(server);
    const { room } = await nearCap(p);
    const size = 10 * KiB;
    const cost = Buffer.byteLength('{urn:x}q') + Buffer.byteLength(`<ns0:q xmlns:ns0="urn:x">${'a'.repeat(size)}</ns0:q>`);
    const fits = Math.floor(room / cost);
    const n = fits + 6;
    assert.ok(fits >= 1, `room for ${fits}`);
    for (let i = 0; i < n; i++) assert.equal((await dav(server, 'PUT', `/dav/q${i}.txt`, p.basic, { body: 'x' })).status, 201);
    const answers = await parallel(n, n, (i) => dav(server, 'PROPPATCH', `/dav/q${i}.txt`, p.basic, { body: proppatch(big('q', size)) }));
    const ok = answers.filter((a) => a.status === 207 && /200 OK/.test(a.text)).length;
    const full = answers.filter((a) => a.status === 207 && /507 Insufficient Storage/.test(a.text)).length;
    assert.deepEqual({ ok, full }, { ok: fits, full: n - fits });
  });

  it('a lock owner is limited to 4096 bytes: past that LOCK is 507 and creates nothing', async () => {
    const p = await warmPerson(server);
    const lockinfo = (owner: string) =>
      `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
    const refused = await dav(server, 'LOCK', '/dav/owned.txt', p.basic, { body: lockinfo('o'.repeat(5000)) });
    assert.equal(refused.status, 507, refused.text);
    assert.match(refused.text, /limited to 4096 bytes/);
    assert.equal((await dav(server, 'PROPFIND', '/dav/owned.txt', p.basic, { headers: { depth: '0' } })).status, 404, 'no file was created for the lock');
    assert.equal((await dav(server, 'LOCK', '/dav/owned.txt', p.basic, { body: lockinfo('<D:href>mailto:me@example.com</D:href>') })).status, 201);
  });
});
