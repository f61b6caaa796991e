// A reshared grant never gives more than its maker holds now (issue 32,
// finding 13): revoking or lowering the resharer's access, taking them out of
// the group that gave it, or deleting their account ends or lowers the grants
// they made, at once, through every door: the API, WebDAV (/dav/), the sync
// clients' door (/remote.php/) and the change feed's audience.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put } from '../files/helpers.js';
import { basicHeader, createAccount, dav } from '../webdav/helpers.js';
import { adminToken, davPath, grant, member, newGroup, sharedWith, type Grant, type Member } from './helpers.js';

describe('sharing: reshared grants are bounded by their maker (issue 32, finding 13)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let alice: Member;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    alice = await member(api, admin, { nickname: 'Alice' });
  });
  after(() => server.close());

  const q = encodeURIComponent;
  const grantsOf = async (who: Member, path: string) => (await api.get<Grant[]>(`/api/v4/file/access?path=${q(path)}`, { token: who.token })).body.data;
  const revoke = async (who: Member, id: string) => assert.equal((await api.delete(`/api/v4/file/access/${id}`, undefined, { token: who.token })).status, 200);
  const mountOf = async (who: Member, name: string) => (await sharedWith(api, who)).find((i) => i.name === name);

  /** A person with a WebDAV account over their whole tree: what /dav/ and /remote.php/ answer them. */
  async function withDav(who: Member): Promise<string> {
    const account = await createAccount(api, who.token, { name: 'laptop' });
    return basicHeader(who.email, account.password);
  }

  /** What `who` can do in the shared item `label` through each door: read a file, write one. */
  async function doors(who: Member, basic: string, label: string, file: string) {
    const base = `/Shared with me/${label}`;
    return {
      apiRead: (await download(api, who.token, `${base}/${file}`)).status,
      apiWrite: (await put(api, who.token, `${base}/new-${Date.now()}.txt`, 'x')).status,
      davRead: (await dav(server, 'GET', davPath(`${base}/${file}`), basic)).status,
      davWrite: (await dav(server, 'PUT', davPath(`${base}/dav-${Date.now()}.txt`), basic, { body: 'x' })).status,
      syncRead: (await dav(server, 'GET', `/remote.php/webdav${davPath(`${base}/${file}`).slice('/dav'.length)}`, basic)).status,
    };
  }

  /** The change-feed events of `who` after `cursor`, as [type, path]. */
  async function feedSince(who: Member, cursor: string): Promise<string[][]> {
    const res = await api.get<{ events: { type: string; path: string }[] }>(`/api/v4/file/changes?cursor=${cursor}&limit=500`, { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.events.map((e) => [e.type, e.path]);
  }
  const cursorOf = async (who: Member) => (await api.get<{ cursor: string }>('/api/v4/file/changes', { token: who.token })).body.data.cursor;

  it('revoking the resharer ends the grants they made: API, WebDAV, the sync door, "Shared with me", and the recipient\'s feed', async () => {
    const bob = await member(api, admin, { nickname: 'Bob' });
    const carol = await member(api, admin, { nickname: 'Carol' });
    await put(api, alice.token, '/revoked/plan.txt', 'plan');
    assert.equal((await grant(api, alice, { path: '/revoked', user: bob.email, permission: 'write', reshare: true })).status, 200);
    const res = await grant(api, bob, { path: (await mountOf(bob, 'revoked'))!.path, user: carol.email, permission: 'write' });
    assert.equal(res.status, 200, res.text);
    const basic = await withDav(carol);
    const label = 'Alice – revoked';
    assert.deepEqual(await doors(carol, basic, label, 'plan.txt'), { apiRead: 200, apiWrite: 200, davRead: 200, davWrite: 201, syncRead: 200 });

    const cursor = await cursorOf(carol);
    await revoke(alice, (await grantsOf(alice, '/revoked')).find((g) => g.user?.id === bob.id)!.id);
    assert.equal(await mountOf(carol, 'revoked'), undefined, 'gone from Shared with me');
    assert.deepEqual(await doors(carol, basic, label, 'plan.txt'), { apiRead: 404, apiWrite: 404, davRead: 404, davWrite: 404, syncRead: 404 });
    assert.deepEqual(await feedSince(carol, cursor), [['deleted', `/Shared with me/${label}`]]);
    // Changes in the owner's folder no longer reach Carol's feed.
    const after = await cursorOf(carol);
    await put(api, alice.token, '/revoked/later.txt', 'later');
    assert.deepEqual(await feedSince(carol, after), []);
    // The owner's own access is untouched; the grant row remains for the owner to see and remove.
    assert.equal((await download(api, alice.token, '/revoked/plan.txt')).status, 200);
  });

  it('lowering the resharer from write to read lowers the grants they made to read', async () => {
    const bob = await member(api, admin, { nickname: 'Bob' });
    const carol = await member(api, admin, { nickname: 'Carol' });
    await put(api, alice.token, '/lowered/plan.txt', 'plan');
    assert.equal((await grant(api, alice, { path: '/lowered', user: bob.email, permission: 'write', reshare: true })).status, 200);
    assert.equal((await grant(api, bob, { path: (await mountOf(bob, 'lowered'))!.path, user: carol.email, permission: 'write' })).status, 200);
    const basic = await withDav(carol);
    const label = 'Alice – lowered';
    assert.equal((await mountOf(carol, 'lowered'))!.permission, 'write');

    assert.equal((await grant(api, alice, { path: '/lowered', user: bob.email, permission: 'read', reshare: true })).status, 200);
    assert.equal((await mountOf(carol, 'lowered'))!.permission, 'read');
    assert.deepEqual(await doors(carol, basic, label, 'plan.txt'), { apiRead: 200, apiWrite: 403, davRead: 200, davWrite: 403, syncRead: 200 });
    // Raised again, the grant is worth what it said.
    assert.equal((await grant(api, alice, { path: '/lowered', user: bob.email, permission: 'write', reshare: true })).status, 200);
    assert.equal((await mountOf(carol, 'lowered'))!.permission, 'write');
  });

  it('taking the resharer out of the group that gave them access ends the grants they made; so does deleting their account', async () => {
    const groupId = await newGroup(api, admin, 'resharers');
    const bob = await member(api, admin, { nickname: 'Bob', groupId });
    const dan = await member(api, admin, { nickname: 'Dan', groupId });
    const carol = await member(api, admin, { nickname: 'Carol' });
    const erin = await member(api, admin, { nickname: 'Erin' });
    await put(api, alice.token, '/team/plan.txt', 'plan');
    assert.equal((await grant(api, alice, { path: '/team', group: groupId, permission: 'write', reshare: true })).status, 200);
    assert.equal((await grant(api, bob, { path: (await mountOf(bob, 'team'))!.path, user: carol.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, dan, { path: (await mountOf(dan, 'team'))!.path, user: erin.email, permission: 'read' })).status, 200);
    const basic = await withDav(carol);
    assert.equal((await dav(server, 'GET', davPath('/Shared with me/Alice – team/plan.txt'), basic)).status, 200);

    const other = await newGroup(api, admin, 'elsewhere');
    assert.equal((await api.put(`/api/v4/admin/user/${bob.id}`, { group_id: other }, { token: admin })).status, 200);
    assert.equal(await mountOf(carol, 'team'), undefined);
    assert.equal((await download(api, carol.token, '/Shared with me/Alice – team/plan.txt')).status, 404);
    assert.equal((await dav(server, 'GET', davPath('/Shared with me/Alice – team/plan.txt'), basic)).status, 404);
    assert.equal((await dav(server, 'GET', '/remote.php/webdav/Shared%20with%20me/Alice%20%E2%80%93%20team/plan.txt', basic)).status, 404);

    assert.equal((await mountOf(erin, 'team'))!.permission, 'read');
    assert.equal((await api.delete(`/api/v4/admin/user/${dan.id}`, undefined, { token: admin })).status, 200);
    assert.equal(await mountOf(erin, 'team'), undefined, "a deleted account's grants reach nothing");
    assert.equal((await download(api, erin.token, '/Shared with me/Alice – team/plan.txt')).status, 404);
  });

  it('a chain of two reshares: each grant is bounded by its own maker; a resharer cannot take over or raise a grant someone else made', async () => {
    const bob = await member(api, admin, { nickname: 'Bob' });
    const dave = await member(api, admin, { nickname: 'Dave' });
    const erin = await member(api, admin, { nickname: 'Erin' });
    const fay = await member(api, admin, { nickname: 'Fay' });
    await put(api, alice.token, '/chain/sub/plan.txt', 'plan');
    assert.equal((await grant(api, alice, { path: '/chain', user: bob.email, permission: 'write', reshare: true })).status, 200);
    const bobPath = (await mountOf(bob, 'chain'))!.path;
    // Bob reshares the subfolder to Dave (a grant on an item below the one Bob holds).
    assert.equal((await grant(api, bob, { path: `${bobPath}/sub`, user: dave.email, permission: 'write' })).status, 200);
    assert.equal((await mountOf(dave, 'sub'))!.permission, 'write');
    // Dave cannot pass it on: only the owner allows resharing.
    const davePath = (await mountOf(dave, 'sub'))!.path;
    assert.equal((await grant(api, dave, { path: davePath, user: erin.email, permission: 'read' })).status, 403);
    // The owner gives Dave resharing on the same item: the grant becomes the owner's, no longer bounded by Bob.
    assert.equal((await grant(api, alice, { path: '/chain/sub', user: dave.email, permission: 'read', reshare: true })).status, 200);
    assert.equal((await grant(api, dave, { path: davePath, user: erin.email, permission: 'read' })).status, 200);
    assert.equal((await mountOf(erin, 'sub'))!.permission, 'read');
    // Bob can neither take over nor raise the grant the owner now holds for Dave, nor Dave's for Erin.
    assert.equal((await grant(api, bob, { path: `${bobPath}/sub`, user: dave.email, permission: 'write' })).status, 403);
    assert.equal((await grant(api, bob, { path: `${bobPath}/sub`, user: erin.email, permission: 'write' })).status, 403);
    assert.equal((await mountOf(erin, 'sub'))!.permission, 'read');
    // Bob's own reshare to Fay, and the revocation of Bob: Fay loses access, Dave and Erin (whose grants the owner backs) keep it.
    assert.equal((await grant(api, bob, { path: bobPath, user: fay.email, permission: 'read' })).status, 200);
    await revoke(alice, (await grantsOf(alice, '/chain')).find((g) => g.user?.id === bob.id)!.id);
    assert.equal(await mountOf(fay, 'chain'), undefined);
    assert.equal((await download(api, dave.token, `${davePath}/plan.txt`)).status, 200);
    assert.equal((await download(api, erin.token, `${(await mountOf(erin, 'sub'))!.path}/plan.txt`)).status, 200);
    // The second link of the chain: the owner revokes Dave, and Erin's grant from Dave ends.
    await revoke(alice, (await grantsOf(alice, '/chain/sub')).find((g) => g.user?.id === dave.id)!.id);
    assert.equal(await mountOf(erin, 'sub'), undefined);
    assert.equal((await download(api, erin.token, '/Shared with me/Alice – sub/plan.txt')).status, 404);
  });
});
