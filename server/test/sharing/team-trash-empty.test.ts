// "Empty trash" for a member of a team folder (issue 38 item 12): the trash
// lists the member's own items and the team folders' items they may write to,
// but emptying deletes only their own (docs/features/teams.md, Trash). The
// listing says how many of each, so a warning can name exactly what will be
// deleted; team items stay until deleted for good by id.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { adminToken, member, newGroup, type Member } from './helpers.js';

interface TrashPage {
  files: { id: string; original_path: string }[];
  next_page_token: string | null;
  own_count: number;
  team_count: number;
}

describe('emptying the trash next to team folders', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let writer: Member;
  let mate: Member;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    const groupId = await newGroup(api, admin, 'crew');
    writer = await member(api, admin, { nickname: 'Wren', groupId });
    mate = await member(api, admin, { nickname: 'Mae', groupId });
    const made = await api.put('/api/v4/admin/team-folder', { group_id: groupId, name: 'Crew', storage_quota: 100_000 }, { token: admin });
    assert.equal(made.status, 200, made.text);
  });
  after(() => server.close());

  const trash = async (m: Member, query = '') => {
    const res = await api.get<TrashPage>(`/api/v4/file/trash${query}`, { token: m.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  it('a member whose trash holds only a team item: own_count 0, team_count 1; emptying deletes 0 and says so, the item stays', async () => {
    assert.equal((await put(api, mate.token, '/Crew/plan.txt', 'plan')).status, 200);
    assert.equal((await api.delete('/api/v4/file', { paths: ['/Crew/plan.txt'] }, { token: mate.token })).status, 200);
    const before = await trash(writer);
    assert.deepEqual(before.files.map((f) => f.original_path), ['/Crew/plan.txt']);
    assert.equal(before.own_count, 0, 'nothing of their own for "Empty trash" to delete');
    assert.equal(before.team_count, 1);
    const emptied = await api.delete<{ deleted: number }>('/api/v4/file/trash', undefined, { token: writer.token });
    assert.equal(emptied.status, 200, emptied.text);
    assert.equal(emptied.body.data.deleted, before.own_count);
    assert.deepEqual((await trash(writer)).files.map((f) => f.original_path), ['/Crew/plan.txt']);
  });

  it('own_count is exactly what DELETE /file/trash deletes, across pages; team items stay and can be deleted for good by id', async () => {
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      assert.equal((await put(api, writer.token, `/${name}`, name)).status, 200);
      assert.equal((await api.delete('/api/v4/file', { paths: [`/${name}`] }, { token: writer.token })).status, 200);
    }
    // The counts do not depend on the page size: a page of 1 still counts everything.
    const first = await trash(writer, '?page_size=1');
    assert.equal(first.files.length, 1);
    assert.equal(first.own_count, 3);
    assert.equal(first.team_count, 1);
    const emptied = await api.delete<{ deleted: number }>('/api/v4/file/trash', undefined, { token: writer.token });
    assert.equal(emptied.body.data.deleted, 3);
    const after = await trash(writer);
    assert.deepEqual(after.files.map((f) => f.original_path), ['/Crew/plan.txt']);
    assert.equal(after.own_count, 0);
    assert.equal(after.team_count, 1);
    // The team's trash is the other members' too: it is still in Mae's.
    assert.equal((await trash(mate)).team_count, 1);
    const purged = await api.post<{ results: { code: number }[] }>('/api/v4/file/trash/delete', { ids: [after.files[0]!.id] }, { token: writer.token });
    assert.equal(purged.body.data.results[0]!.code, 0, purged.text);
    const none = await trash(writer);
    assert.deepEqual([none.files.length, none.own_count, none.team_count], [0, 0, 0]);
  });
});
