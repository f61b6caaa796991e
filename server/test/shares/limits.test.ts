// What guards a share link: its password (unlock tokens, throttled guessing),
// its expiry and its download limit (exact under concurrent downloads).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { postFrom } from '../foundation/support.js';
import { ManualClock } from '../../src/core/clock.js';
import { fetchBytes, newUser, setUp, share, unlock, upload, type Ctx, type ItemView, type Person, type PublicView, type ShareView } from './support.js';

describe('shares: password, expiry, download limit', () => {
  let ctx: Ctx;
  let alice: Person;
  // Runs with real time; lock waits and the expiry move it forward instead of sleeping.
  const clock = new ManualClock();

  before(async () => {
    ctx = await setUp({ clock });
    alice = await newUser(ctx);
    await upload(ctx, alice, '/vault/plans.txt', 'top secret plans');
    await upload(ctx, alice, '/vault/inner/x.txt', 'x');
    await upload(ctx, alice, '/big.bin', Buffer.alloc(256 * 1024, 7));
  });
  after(() => ctx.server.close());

  const info = (id: string, query = '') => ctx.api.get<PublicView>(`/api/v4/share/info/${id}${query}`);
  const ownerView = async (id: string) => (await ctx.api.get<ShareView>(`/api/v4/share/${id}`, { token: alice.token })).body.data;
  const browse = (id: string, query = '', headers: Record<string, string> = {}) =>
    ctx.api.get<{ files: ItemView[] }>(`/api/v4/share/list/${id}${query}`, { headers });

  it('a password-protected share hides its name and content until unlocked; the unlock token works in the query or the X-Share-Token header', async () => {
    const s = await share(ctx, alice, { path: '/vault', password: 'correct horse' });
    const locked = await info(s.id);
    assert.equal(locked.status, 200);
    assert.equal(locked.body.data.has_password, true);
    assert.equal(locked.body.data.unlocked, false);
    assert.equal(locked.body.data.name, null);
    assert.equal(locked.body.data.size, null);
    assert.equal(locked.body.data.mime_type, null, 'the type is withheld too');
    assert.ok(!locked.text.includes('vault'));

    for (const res of [await browse(s.id), (await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt`))]) {
      assert.equal(res.status, 403);
    }
    const noToken = await fetchBytes(ctx, `/s/${s.id}`);
    assert.equal(noToken.json?.code, 403);
    assert.match(noToken.json?.msg ?? '', /password/);
    assert.ok(!noToken.body.toString().includes('top secret'));

    const res = await ctx.api.post<{ token: string; expires_at: string }>(`/api/v4/share/unlock/${s.id}`, { password: 'correct horse' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const token = res.body.data.token;
    const lifetime = Date.parse(res.body.data.expires_at) - clock.now();
    assert.ok(lifetime > 0 && lifetime <= 3600_000 + 1000, `short-lived: ${res.body.data.expires_at}`);

    const unlocked = await info(s.id, `?token=${encodeURIComponent(token)}`);
    assert.equal(unlocked.body.data.unlocked, true);
    assert.equal(unlocked.body.data.name, 'vault');
    assert.equal(unlocked.body.data.mime_type, null, 'a folder has no type');
    assert.deepEqual((await browse(s.id, `?token=${encodeURIComponent(token)}`)).body.data.files.map((f) => f.path), ['/inner', '/plans.txt']);
    assert.equal((await browse(s.id, '', { 'x-share-token': token })).status, 200);
    const dl = await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt&token=${encodeURIComponent(token)}`);
    assert.equal(dl.status, 200);
    assert.equal(dl.body.toString(), 'top secret plans');
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt`, { headers: { 'x-share-token': token } })).status, 200);

    // A forged, altered or foreign token is refused.
    const other = await share(ctx, alice, { path: '/vault/plans.txt', password: 'correct horse' });
    const forged = [token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), `${Number(token.split('.')[0]) + 3600}.${token.split('.')[1]}`, 'garbage', `${token}x`];
    for (const t of forged) {
      const r = await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt&token=${encodeURIComponent(t)}`);
      assert.ok(r.status === 403 || r.status === 400, `${t}: ${r.status}`);
    }
    assert.equal((await fetchBytes(ctx, `/s/${other.id}?token=${encodeURIComponent(token)}`)).status, 403, 'a token unlocks its own share only');
  });

  it('a wrong password is 403 and unlocks nothing; changing or removing the password ends outstanding tokens', async () => {
    const s = await share(ctx, alice, { path: '/vault/plans.txt', password: 'first password' });
    const wrong = await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'second password' });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.code, 403);
    assert.equal(wrong.body.data, null);
    const bad = await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 1234 });
    assert.equal(bad.status, 400);
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, {})).status, 400);

    const token = await unlock(ctx, s.id, 'first password');
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?token=${token}`)).status, 200);
    await ctx.api.patch(`/api/v4/share/${s.id}`, { password: 'second password' }, { token: alice.token });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?token=${token}`)).status, 403, 'the old token died with the old password');
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'first password' })).status, 403);
    const second = await unlock(ctx, s.id, 'second password');
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?token=${second}`)).status, 200);

    await ctx.api.patch(`/api/v4/share/${s.id}`, { password: null }, { token: alice.token });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 200, 'no password, no token needed');
    const none = await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'anything' });
    assert.equal(none.status, 400);
    assert.match(none.body.msg, /no password/);
  });

  it('NIST SP 800-63B §5.2.2: wrong passwords for one share lead to 429 with Retry-After; once it runs out the right password works', async () => {
    const s = await share(ctx, alice, { path: '/vault/plans.txt', password: 'the right one' });
    let res = await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'guess-0' });
    let attempts = 1;
    while (res.status === 403 && attempts < 20) {
      res = await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: `guess-${attempts}` });
      attempts++;
    }
    assert.equal(res.status, 429, res.text);
    assert.equal(res.body.code, 429);
    assert.ok(attempts > 5, `a few typos are free (${attempts})`);
    assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'the right one' })).status, 429, 'the right password while the lock lasts');
    clock.advance(Number(res.headers.get('retry-after')) * 1000 + 100);
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'the right one' })).status, 200);
  });

  it('NIST SP 800-63B §5.2.2: guesses sent in parallel are counted, and while locked even the right password is 429; other shares are unaffected', async () => {
    // From its own address, so that this burst does not lock the address the other tests use.
    const from = '127.0.0.3';
    const s = await share(ctx, alice, { path: '/vault/plans.txt', password: 'the right one' });
    const guess = (password: string) => postFrom(from, ctx.server, `/api/v4/share/unlock/${s.id}`, { password });
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => guess(`parallel-${i}`)));
    assert.ok(burst.every((r) => r.status === 403 || r.status === 429), burst.map((r) => r.status).join(','));
    // Guesses refused with 429 were never checked; every checked one counts:
    // with 5 free, the lock doubles from 1 s for each failure past the allowance.
    const checked = burst.filter((r) => r.status === 403).length;
    assert.ok(checked > 5, `${checked} guesses checked`);
    let probe = await guess('one-more-wrong');
    let retry = 0;
    if (checked >= 8 || probe.status === 429) {
      assert.equal(probe.status, 429);
      retry = Number(probe.headers.get('retry-after'));
      assert.ok(retry >= Math.min(900, 2 ** (checked - 6)) - 2, `Retry-After ${retry} reflects ${checked} failures`);
    }
    // Lengthen a short lock so the check below runs inside it even on a slow machine.
    for (let round = 0; retry < 8 && round < 5; round++) {
      clock.advance(retry * 1000 + 50);
      await Promise.all([0, 1, 2].map((j) => guess(`longer-${round}-${j}`)));
      probe = await guess('probe');
      assert.equal(probe.status, 429);
      retry = Number(probe.headers.get('retry-after'));
    }
    const locked = await guess('the right one');
    assert.equal(locked.status, 429, 'the lock is checked before the password');
    assert.equal(locked.body.data, null);
    const t = await share(ctx, alice, { path: '/vault/plans.txt', password: 'another one' });
    assert.equal((await postFrom(from, ctx.server, `/api/v4/share/unlock/${t.id}`, { password: 'another one' })).status, 200);
  });

  it('NIST SP 800-63B §5.2.2: wrong passwords are also counted per address, across shares', async () => {
    const from = '127.0.0.2';
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await share(ctx, alice, { path: '/vault/plans.txt', password: `pw-${i}-secret` })).id);
    // 4 wrong guesses per share stay under each share's allowance; 24 in all exceed the address's 20.
    const burst = await Promise.all(ids.flatMap((id) => [0, 1, 2, 3].map((k) => postFrom(from, ctx.server, `/api/v4/share/unlock/${id}`, { password: `wrong-${k}` }))));
    assert.ok(burst.every((r) => r.status === 403 || r.status === 429), burst.map((r) => r.status).join(','));
    // Only guesses that were checked count (at most 21 of the 24: the 21st
    // sets the first lock); refused ones do not lengthen the lock. Lengthen a
    // short lock with a few more wrong guesses on other shares, so the check
    // below runs inside it even on a slow machine.
    const others: string[] = [];
    for (let i = 0; i < 3; i++) others.push((await share(ctx, alice, { path: '/vault/plans.txt', password: `other-${i}-secret` })).id);
    const fresh = ids[ids.length - 1]!;
    let locked = await postFrom(from, ctx.server, `/api/v4/share/unlock/${fresh}`, { password: 'pw-5-secret' });
    let retry = locked.status === 429 ? Number(locked.headers.get('retry-after')) : 0;
    for (let round = 0; retry < 8 && round < 5; round++) {
      clock.advance(retry * 1000 + 50);
      await Promise.all(others.map((id) => postFrom(from, ctx.server, `/api/v4/share/unlock/${id}`, { password: `longer-${round}` })));
      locked = await postFrom(from, ctx.server, `/api/v4/share/unlock/${fresh}`, { password: 'pw-5-secret' });
      retry = locked.status === 429 ? Number(locked.headers.get('retry-after')) : 0;
    }
    assert.equal(locked.status, 429, 'the address is locked, even for a right password');
    assert.ok(retry >= 2, `Retry-After ${retry}`);
    // Another address is not locked by it, and the shares themselves are not locked.
    assert.equal((await postFrom('127.0.0.1', ctx.server, `/api/v4/share/unlock/${fresh}`, { password: 'pw-5-secret' })).status, 200);
  });

  it('an expired share answers 404 everywhere and never serves bytes; its owner still sees it as expired', async () => {
    const s = await share(ctx, alice, { path: '/vault', expires_in: 2 });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt`)).status, 200);
    clock.advance(2100);
    const i = await info(s.id);
    assert.equal(i.status, 404);
    assert.equal(i.body.code, 404);
    assert.match(i.body.msg, /expired/);
    assert.equal((await browse(s.id)).status, 404);
    const dl = await fetchBytes(ctx, `/s/${s.id}?path=/plans.txt`);
    assert.equal(dl.status, 404);
    assert.ok(!dl.body.toString().includes('top secret'));
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: 'whatever' })).status, 404);
    const v = await ownerView(s.id);
    assert.equal(v.status, 'expired');
    assert.equal(v.downloads, 1);
    // The owner can extend it.
    await ctx.api.patch(`/api/v4/share/${s.id}`, { expires_in: 600 }, { token: alice.token });
    assert.equal((await info(s.id)).status, 200);
  });

  it('concurrent downloads never exceed the download limit', async () => {
    const limit = 3;
    const s = await share(ctx, alice, { path: '/big.bin', download_limit: limit });
    const results = await Promise.all(Array.from({ length: 16 }, () => fetchBytes(ctx, `/s/${s.id}`)));
    const served = results.filter((r) => r.status === 200);
    assert.equal(served.length, limit, results.map((r) => r.status).join(','));
    for (const r of served) assert.equal(r.body.length, 256 * 1024);
    for (const r of results.filter((x) => x.status !== 200)) {
      assert.equal(r.status, 404);
      assert.equal(r.json?.code, 404);
    }
    const v = await ownerView(s.id);
    assert.equal(v.downloads, limit);
    assert.equal(v.status, 'exhausted');
    assert.equal((await info(s.id)).status, 404);
    assert.match((await info(s.id)).body.msg, /limit/);
    // Raising the limit lets one more through.
    await ctx.api.patch(`/api/v4/share/${s.id}`, { download_limit: limit + 1 }, { token: alice.token });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 200);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 404);
  });

  it('folder zips and files inside a folder share count against the same limit', async () => {
    const s = await share(ctx, alice, { path: '/vault', download_limit: 2 });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 200);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/inner/x.txt`)).status, 200);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/inner/x.txt`)).status, 404);
    assert.equal((await browse(s.id)).status, 404);
  });
});
