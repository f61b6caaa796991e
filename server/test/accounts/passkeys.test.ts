// Passkeys (api-contract §11, WebAuthn Level 3) through the HTTP API, with a
// software authenticator (helpers/webauthn.ts) signing real responses: the
// challenge is single use, expires after 5 minutes and, for registration,
// belongs to the user who asked; a foreign origin is refused; the signature
// counter may not go backwards (WebAuthn §6.1.1); another user's passkey is
// a 404. Every refusal is a 400 with a message and leaves nothing stored.
// The browser test (browser/passkeys.test.ts) drives Chromium's authenticator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { INJECT_ORIGIN, startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { SoftAuthenticator } from '../helpers/webauthn.js';
import { totp } from '../foundation/support.js';

const PASSWORD = 'violet-harbor-lantern-42';
const RP_ID = new URL(INJECT_ORIGIN).hostname;

interface CreationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string };
  authenticatorSelection: { residentKey: string; userVerification: string };
  excludeCredentials: { id: string }[];
}
interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

describe('passkeys (WebAuthn, api-contract §11)', () => {
  const clock = new ManualClock({ at: Date.now() });
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env, { clock });
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  const user = async (email: string) => (await createUser(api, admin, email, PASSWORD)).token.access_token;
  const options = async (token: string) => {
    const res = await api.put<CreationOptions>('/api/v4/user/authn', undefined, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const list = async (token: string) => (await api.get<Passkey[]>('/api/v4/user/authn', { token })).body.data;
  const register = async (token: string, name = 'Laptop') => {
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    const res = await api.post<Passkey>('/api/v4/user/authn', { response: key.create(await options(token)), name, password: PASSWORD }, { token });
    assert.equal(res.status, 200, res.text);
    return { key, passkey: res.body.data };
  };
  const signInOptions = async () => {
    const res = await api.put<{ id: string; options: { challenge: string; rpId: string; allowCredentials?: unknown[]; userVerification: string } }>('/api/v4/session/authn');
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const refused = (res: { status: number; body: { code: number; msg: string } }, msg: RegExp) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 40001);
    assert.match(res.body.msg, msg);
  };

  it('registers a discoverable passkey for the RP of CIRRUS_BASE_URL, lists it, mails a notice, and signs in with it like a password sign-in', async () => {
    const token = await user('pk-main@example.com');
    const opts = await options(token);
    assert.equal(opts.rp.id, RP_ID);
    assert.equal(opts.user.name, 'pk-main@example.com');
    assert.equal(opts.authenticatorSelection.residentKey, 'required');
    assert.equal(opts.authenticatorSelection.userVerification, 'required');
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    const added = await api.post<Passkey>('/api/v4/user/authn', { response: key.create(opts), name: '  Work laptop ', password: PASSWORD }, { token });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.data.name, 'Work laptop');
    assert.equal(added.body.data.last_used_at, null);
    assert.deepEqual(Object.keys(added.body.data).sort(), ['created_at', 'id', 'last_used_at', 'name']);
    assert.deepEqual(await list(token), [added.body.data]);
    assert.match((await smtp.waitFor('pk-main@example.com')).subject, /passkey was added/);
    // The next options exclude it (no second registration of one authenticator).
    assert.deepEqual((await options(token)).excludeCredentials.map((c) => c.id), [key.create(opts).id]);

    const start = await signInOptions();
    assert.equal(start.options.rpId, RP_ID);
    assert.deepEqual(start.options.allowCredentials ?? [], []);
    assert.equal(start.options.userVerification, 'required');
    clock.advance(1000);
    const res = await api.post<{ user: { email: string }; token: { access_token: string } }>('/api/v4/session/authn', { id: start.id, response: key.get(start.options) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.user.email, 'pk-main@example.com');
    assert.match(res.headers.get('set-cookie') ?? '', /cirrus_device/i);
    const me = await api.get<{ email: string }>('/api/v4/user/me', { token: res.body.data.token.access_token });
    assert.equal(me.body.data.email, 'pk-main@example.com');
    const [used] = await list(token);
    assert.equal(used!.last_used_at, new Date(clock.now()).toISOString());
  });

  it('adding a passkey needs the password or a TOTP code, not only an access token (issue 32, finding 10); wrong ones store nothing and are throttled', async () => {
    const token = await user('pk-reauth@example.com');
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    const opts = await options(token);
    const bare = await api.post('/api/v4/user/authn', { response: key.create(opts), name: 'Thief' }, { token });
    assert.equal(bare.status, 400, bare.text);
    assert.equal(bare.body.code, 40001);
    assert.match(bare.body.msg, /password/);
    const wrong = await api.post('/api/v4/user/authn', { response: key.create(opts), name: 'Thief', password: 'granite-pelican-orbit-55' }, { token });
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(wrong.body.code, 40069);
    assert.deepEqual(await list(token), [], 'nothing stored');
    // The challenge was not spent by the refusals: the right password completes the same ceremony.
    assert.equal((await api.post('/api/v4/user/authn', { response: key.create(opts), name: 'Mine', password: PASSWORD }, { token })).status, 200);
    // With two-step on, a current code works instead of the password.
    const step = () => Math.floor(clock.now() / 30_000);
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token })).body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step()) }, { token })).status, 200);
    const second = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    assert.equal((await api.post('/api/v4/user/authn', { response: second.create(await options(token)), name: 'Second', otp: totp(secret, step() + 5) }, { token })).body.code, 40022);
    assert.equal((await api.post('/api/v4/user/authn', { response: second.create(await options(token)), name: 'Second', otp: totp(secret, step() + 1) }, { token })).status, 200);
    // Sorted: both were made at the same instant of the manual clock, and the list orders ties by random id.
    assert.deepEqual((await list(token)).map((p) => p.name).sort(), ['Mine', 'Second']);
    // Wrong passwords are guesses: after 6, even the right one waits (429).
    for (let i = 0; i < 6; i++) {
      const res = await api.post('/api/v4/user/authn', { response: key.create(await options(token)), name: 'x', password: 'granite-pelican-orbit-55' }, { token });
      assert.equal(res.body.code, 40069);
    }
    const locked = await api.post('/api/v4/user/authn', { response: new SoftAuthenticator(RP_ID, INJECT_ORIGIN).create(await options(token)), name: 'x', password: PASSWORD }, { token });
    assert.equal(locked.status, 429, locked.text);
  });

  it('rename and remove work on one\'s own passkey; another user\'s is 404 and stays as it was', async () => {
    const owner = await user('pk-owner@example.com');
    const other = await user('pk-other@example.com');
    const { passkey } = await register(owner, 'Phone');
    for (const res of [
      await api.patch(`/api/v4/user/authn/${passkey.id}`, { name: 'Mine now' }, { token: other }),
      await api.delete(`/api/v4/user/authn/${passkey.id}`, undefined, { token: other }),
    ]) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 404);
    }
    assert.deepEqual((await list(owner)).map((p) => p.name), ['Phone']);
    const renamed = await api.patch<Passkey>(`/api/v4/user/authn/${passkey.id}`, { name: 'Old phone' }, { token: owner });
    assert.equal(renamed.body.data.name, 'Old phone');
    const blank = await api.patch(`/api/v4/user/authn/${passkey.id}`, { name: '   ' }, { token: owner });
    assert.equal(blank.status, 400);
    const removed = await api.delete(`/api/v4/user/authn/${passkey.id}`, undefined, { token: owner });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(await list(owner), []);
  });

  it('garbage responses are 400 and store nothing', async () => {
    const token = await user('pk-garbage@example.com');
    await options(token);
    const bodies: unknown[] = [
      { response: 'garbage', name: 'x' },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'bm90IGpzb24', attestationObject: 'AA' }, clientExtensionResults: {} }, name: 'x' },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: '', attestationObject: '' }, clientExtensionResults: {} }, name: 'x' },
      { name: 'x' },
    ];
    for (const body of bodies) {
      const res = await api.post('/api/v4/user/authn', { ...(body as object), password: PASSWORD }, { token });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 40001);
    }
    const signInGarbage = await api.post('/api/v4/session/authn', { id: (await signInOptions()).id, response: { id: 'a' } });
    assert.equal(signInGarbage.status, 400, signInGarbage.text);
    assert.deepEqual(await list(token), []);
  });

  it('a foreign origin in clientDataJSON is refused (registration and sign-in)', async () => {
    const token = await user('pk-origin@example.com');
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    refused(await api.post('/api/v4/user/authn', { response: key.create(await options(token), { origin: 'https://evil.example' }), name: 'x', password: PASSWORD }, { token }), /origin/i);
    assert.deepEqual(await list(token), []);
    const { key: real } = await register(token);
    const start = await signInOptions();
    refused(await api.post('/api/v4/session/authn', { id: start.id, response: real.get(start.options, { origin: 'https://evil.example' }) }), /origin/i);
  });

  it('a challenge works once: a replayed registration or sign-in challenge is refused', async () => {
    const token = await user('pk-replay@example.com');
    const opts = await options(token);
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    assert.equal((await api.post('/api/v4/user/authn', { response: key.create(opts), name: 'first', password: PASSWORD }, { token })).status, 200);
    refused(await api.post('/api/v4/user/authn', { response: new SoftAuthenticator(RP_ID, INJECT_ORIGIN).create(opts), name: 'again', password: PASSWORD }, { token }), /challenge/);
    assert.deepEqual((await list(token)).map((p) => p.name), ['first']);

    const start = await signInOptions();
    const answer = key.get(start.options);
    assert.equal((await api.post('/api/v4/session/authn', { id: start.id, response: answer })).status, 200);
    refused(await api.post('/api/v4/session/authn', { id: start.id, response: answer }), /challenge/);
    // Even a failed attempt uses the challenge up.
    const failed = await signInOptions();
    refused(await api.post('/api/v4/session/authn', { id: failed.id, response: new SoftAuthenticator(RP_ID, INJECT_ORIGIN).get(failed.options) }), /not registered/);
    refused(await api.post('/api/v4/session/authn', { id: failed.id, response: key.get(failed.options) }), /challenge/);
  });

  it('a registration challenge belongs to the user who asked for it', async () => {
    const alice = await user('pk-alice@example.com');
    const bob = await user('pk-bob@example.com');
    const bobs = await options(bob);
    refused(await api.post('/api/v4/user/authn', { response: new SoftAuthenticator(RP_ID, INJECT_ORIGIN).create(bobs), name: 'stolen', password: PASSWORD }, { token: alice }), /challenge/);
    assert.deepEqual(await list(alice), []);
    // Bob's challenge was not used up by Alice's attempt.
    const res = await api.post('/api/v4/user/authn', { response: new SoftAuthenticator(RP_ID, INJECT_ORIGIN).create(bobs), name: 'mine', password: PASSWORD }, { token: bob });
    assert.equal(res.status, 200, res.text);
  });

  it('a challenge expires after 5 minutes (registration and sign-in)', async () => {
    const token = await user('pk-expiry@example.com');
    const opts = await options(token);
    const start = await signInOptions();
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    clock.advance(5 * 60_000 + 1);
    refused(await api.post('/api/v4/user/authn', { response: key.create(opts), name: 'late', password: PASSWORD }, { token }), /expired/);
    assert.deepEqual(await list(token), []);
    const { key: real } = await register(token);
    refused(await api.post('/api/v4/session/authn', { id: start.id, response: real.get(start.options) }), /expired/);
    // Just inside the five minutes it works.
    const fresh = await signInOptions();
    clock.advance(5 * 60_000 - 1000);
    assert.equal((await api.post('/api/v4/session/authn', { id: fresh.id, response: real.get(fresh.options) })).status, 200);
  });

  it('WebAuthn §6.1.1: a signature counter that does not move forward is refused; last_used_at stays', async () => {
    const token = await user('pk-counter@example.com');
    const { key } = await register(token);
    const first = await signInOptions();
    assert.equal((await api.post('/api/v4/session/authn', { id: first.id, response: key.get(first.options, { counter: 10 }) })).status, 200);
    const used = (await list(token))[0]!.last_used_at;
    clock.advance(60_000);
    const back = await signInOptions();
    refused(await api.post('/api/v4/session/authn', { id: back.id, response: key.get(back.options, { counter: 7 }) }), /counter/);
    const same = await signInOptions();
    refused(await api.post('/api/v4/session/authn', { id: same.id, response: key.get(same.options, { counter: 10 }) }), /counter/);
    assert.equal((await list(token))[0]!.last_used_at, used);
    const forward = await signInOptions();
    assert.equal((await api.post('/api/v4/session/authn', { id: forward.id, response: key.get(forward.options, { counter: 11 }) })).status, 200);
  });

  it('a banned account cannot sign in with its passkey (403/40017), as at password sign-in', async () => {
    const created = await createUser(api, admin, 'pk-banned@example.com', PASSWORD);
    const { key } = await register(created.token.access_token);
    const ban = await api.put(`/api/v4/admin/user/${created.user.id}`, { status: 'banned' }, { token: admin });
    assert.equal(ban.status, 200, ban.text);
    const start = await signInOptions();
    const res = await api.post('/api/v4/session/authn', { id: start.id, response: key.get(start.options) });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 40017);
  });
});
