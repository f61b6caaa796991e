// litmus (all suites: basic copymove props locks http, -k) against Cirrus and
// against Apache httpd 2.4 mod_dav + mod_dav_fs in the same run: every test
// Apache passes must pass on Cirrus (RFC 4918 class 1 and 2 as litmus checks it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/harness.js';
import { davPerson, hasTool } from './helpers.js';
import { apacheAvailable, startApacheDav } from './apache.js';
import { runLitmus, SUITES } from './litmus-run.js';

const ready = hasTool('litmus') && apacheAvailable();

test('RFC 4918 litmus: Cirrus passes every litmus test that Apache mod_dav passes in the same run', { skip: ready ? false : 'litmus or apache2 missing (.ci/run installs them)', timeout: 600_000 }, async () => {
  const server = await startServer();
  const apache = await startApacheDav();
  try {
    const person = await davPerson(server);
    const cirrus = await runLitmus(`${server.url}/dav/`, person.email, person.account.password);
    const reference = await runLitmus(`${apache.url}/dav/`, apache.user, apache.password);
    const table = ['| suite | Apache mod_dav | Cirrus |', '|---|---|---|'];
    for (const s of SUITES) {
      const a = reference.perSuite[s];
      const c = cirrus.perSuite[s];
      table.push(`| ${s} | ${a ? `${a.passed}/${a.run}` : '-'} | ${c ? `${c.passed}/${c.run}` : '-'} |`);
    }
    console.log(table.join('\n'));
    // Apache must have run every suite, or the comparison proves nothing.
    for (const s of SUITES) assert.ok((reference.perSuite[s]?.run ?? 0) > 0, `Apache ran no ${s} tests:\n${reference.output.slice(-2000)}`);
    const missed = [...reference.tests].filter(([name, passed]) => passed && cirrus.tests.get(name) !== true).map(([name]) => name);
    assert.deepEqual(missed, [], `Cirrus fails litmus tests Apache passes:\n${cirrus.output.slice(-4000)}`);
  } finally {
    await apache.stop();
    await server.close();
  }
});
