// litmus (Debian package: basic, copymove, props, locks, http) run by a write
// member inside a team folder, against the same member's own files in the
// same run: a team folder is "like any other folder" to a WebDAV client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { davPerson, hasTool } from '../webdav/helpers.js';
import { runLitmus, SUITES } from '../webdav/litmus-run.js';
import { adminToken } from './helpers.js';

test('litmus passes inside a team folder as it does in one\'s own files', { skip: hasTool('litmus') ? false : 'litmus missing', timeout: 600_000 }, async () => {
  const server = await startServer();
  try {
    const api = new Api(server.url);
    const admin = await adminToken(api);
    const person = await davPerson(server);
    const me = await api.get<{ group: { id: number } }>('/api/v4/user/me', { token: person.token });
    const made = await api.put('/api/v4/admin/team-folder', { group_id: me.body.data.group.id, name: 'Studio', storage_quota: 1 << 30 }, { token: admin });
    assert.equal(made.status, 200, made.text);
    const own = await runLitmus(`${server.url}/dav/`, person.email, person.account.password);
    const team = await runLitmus(`${server.url}/dav/Studio/`, person.email, person.account.password);
    for (const suite of SUITES) {
      assert.ok(team.perSuite[suite], `${suite} ran in the team folder:\n${team.output.slice(-2000)}`);
      assert.deepEqual(team.perSuite[suite], own.perSuite[suite], `${suite}: team ${JSON.stringify(team.perSuite[suite])} vs own ${JSON.stringify(own.perSuite[suite])}`);
      assert.equal(team.perSuite[suite]!.passed, team.perSuite[suite]!.run, `${suite} all pass`);
    }
  } finally {
    await server.close();
  }
});
