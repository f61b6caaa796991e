// Avatars: PUT /user/avatar (an image body) is cropped to the centred square
// and stored as a 256-pixel WebP; GET /user/avatar/:id serves it with cache
// headers tied to its version; DELETE goes back to initials.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';

describe('avatars', () => {
  let server: InjectedServer;
  let api: Api;
  let token: string;
  let userId: string;
  let otherToken: string;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const u = await createUser(api, admin, `avatar-${process.pid}@example.com`);
    token = u.token.access_token;
    userId = u.user.id;
    otherToken = (await createUser(api, admin, `avatar-other-${process.pid}@example.com`)).token.access_token;
  });
  after(() => server.close());

  const upload = (body: Buffer, type = 'image/png', t = token) =>
    server.fetch(`/api/v4/user/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${t}`, 'content-type': type }, body: new Uint8Array(body) });
  const me = async () => (await api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token })).body.data;

  it('starts without an avatar (initials): avatar_url is null and the route is 404', async () => {
    assert.equal((await me()).avatar_url, null);
    assert.equal((await server.fetch(`/api/v4/user/avatar/${userId}`)).status, 404);
    const info = (await (await server.fetch(`/api/v4/session/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json()) as { picture?: string; sub: string };
    assert.equal(info.sub, userId);
    assert.equal(info.picture, undefined, 'no picture claim with initials');
  });

  it('a wide picture becomes a 256×256 WebP of its centre, served with version-bound caching', async () => {
    // 600×200: red | green | blue thirds. The centred square is the green third.
    const third = (r: number, g: number, b: number) => sharp({ create: { width: 200, height: 200, channels: 3, background: { r, g, b } } }).png().toBuffer();
    const wide = await sharp({ create: { width: 600, height: 200, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([{ input: await third(255, 0, 0), left: 0, top: 0 }, { input: await third(0, 255, 0), left: 200, top: 0 }, { input: await third(0, 0, 255), left: 400, top: 0 }])
      .png()
      .toBuffer();
    const res = await upload(wide);
    assert.equal(res.status, 200, await res.clone().text());
    const { data } = (await res.json()) as { data: { avatar_url: string } };
    assert.match(data.avatar_url, new RegExp(`^/api/v4/user/avatar/${userId}\\?v=\\d+$`));
    assert.equal((await me()).avatar_url, data.avatar_url, '/user/me shows the new avatar at once');
    // userinfo is plain JSON (OIDC), not the envelope.
    const info = (await (await server.fetch(`/api/v4/session/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json()) as { picture?: string };
    assert.equal(info.picture, server.url + data.avatar_url, 'OIDC userinfo: picture');

    const pic = await server.fetch(data.avatar_url);
    assert.equal(pic.status, 200);
    assert.equal(pic.headers.get('content-type'), 'image/webp');
    assert.match(pic.headers.get('cache-control')!, /max-age=31536000/);
    const bytes = Buffer.from(await pic.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 256, 256]);
    const { data: px } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // Away from the edges, where resampling blends in a little of the cut-off neighbours.
    for (const at of [16 * 256 + 16, 128 * 256 + 128, 240 * 256 + 240]) {
      const [r, g, b] = [px[at * 3]!, px[at * 3 + 1]!, px[at * 3 + 2]!];
      assert.ok(g > 200 && r < 60 && b < 60, `pixel ${at} is green (the centre), got ${r},${g},${b}`);
    }
    // Without the version: revalidated, with an ETag that answers 304.
    const plain = await server.fetch(`/api/v4/user/avatar/${userId}`);
    assert.match(plain.headers.get('cache-control')!, /no-cache/);
    const etag = plain.headers.get('etag')!;
    assert.equal((await server.fetch(`/api/v4/user/avatar/${userId}`, { headers: { 'if-none-match': etag } })).status, 304);

    // A new upload is a new version (new URL, new ETag).
    const again = (await (await upload(await third(0, 0, 255))).json()) as { data: { avatar_url: string } };
    assert.notEqual(again.data.avatar_url, data.avatar_url);
    assert.notEqual((await server.fetch(again.data.avatar_url)).headers.get('etag'), etag);
  });

  it('refuses what is not a picture, types it does not read, no token, and a pixel bomb', async () => {
    assert.equal((await upload(Buffer.from('not a picture'))).status, 400);
    assert.equal((await upload(Buffer.from('<svg/>'), 'image/svg+xml')).status, 415);
    assert.equal((await server.fetch(`/api/v4/user/avatar`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(10) })).status, 401);
    // 10,000 × 10,000 of one colour compresses to little but decodes to 100 megapixels.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    const res = await upload(bomb);
    assert.equal(res.status, 413, await res.text());
    const huge = await upload(Buffer.alloc(10 * 1024 * 1024 + 1), 'image/jpeg');
    assert.equal(huge.status, 413, 'over the 10 MiB body cap');
    assert.equal(((await huge.json()) as { code: number }).code, 40049);
    assert.notEqual((await me()).avatar_url, null, 'the earlier avatar stays');
  });

  it("DELETE removes it (back to initials); another person's avatar is untouched", async () => {
    const theirs = (await (await upload(await sharp({ create: { width: 10, height: 10, channels: 3, background: '#f00' } }).png().toBuffer(), 'image/png', otherToken)).json()) as {
      data: { avatar_url: string };
    };
    const del = await api.delete('/api/v4/user/avatar', undefined, { token });
    assert.equal(del.status, 200);
    assert.equal((await me()).avatar_url, null);
    assert.equal((await server.fetch(`/api/v4/user/avatar/${userId}`)).status, 404);
    const info = (await (await server.fetch(`/api/v4/session/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json()) as { picture?: string; sub: string };
    assert.equal(info.sub, userId);
    assert.equal(info.picture, undefined, 'no picture claim with initials');
    assert.equal((await server.fetch(theirs.data.avatar_url)).status, 200);
  });
});
