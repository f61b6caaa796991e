// The command line (api-contract §4, §7), run as a child process the way an
// operator runs it, against a fresh database. The master key must never
// appear in anything it prints.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { ROOT_DIR } from '../../src/paths.js';
import { Api, decodeJwt, type UserView } from '../helpers/client.js';
import { freshDatabase, nowSeconds, type FreshDatabase } from './support.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const OPERATOR_EMAIL = 'operator@example.com';
const OPERATOR_PASSWORD = 'operator-password-1';

describe('command line', () => {
  let fresh: FreshDatabase;
  let db: Db;
  const outputs: string[] = [];

  function cirrus(...args: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...fresh.env, CIRRUS_ADMIN_EMAIL: OPERATOR_EMAIL, CIRRUS_ADMIN_PASSWORD: OPERATOR_PASSWORD };
    return new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), ...args], { cwd: ROOT_DIR, env, timeout: 60_000 }, (err, stdout, stderr) => {
        outputs.push(stdout, stderr);
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  const masterKey = async () => (await db.selectFrom('settings').select('value').where('name', '=', 'secret_key').executeTakeFirstOrThrow()).value;
  const users = () => db.selectFrom('users').innerJoin('groups', 'groups.id', 'users.group_id').select(['users.id', 'users.email', 'groups.is_admin']).orderBy('users.email').execute();

  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await db?.destroy();
    await fresh.drop();
  });

  it('init creates the schema, the master key and one administrator; a second init changes nothing', async () => {
    const first = await cirrus('init');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /initialized/i);
    assert.match(first.stdout, new RegExp(`first administrator account ${OPERATOR_EMAIL.replace('.', '\\.')}`));
    db = createDb(loadConfig(fresh.env).database);
    const key = await masterKey();
    // api-contract §4: at least 256 random bits as a printable string.
    assert.match(key, /^[\x21-\x7e]+$/);
    assert.ok(Buffer.byteLength(key, 'utf8') >= 43);
    assert.deepEqual(
      (await users()).map((u) => [u.email, u.is_admin]),
      [[OPERATOR_EMAIL, 1]],
    );

    const second = await cirrus('init');
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stdout, /Created/);
    assert.equal(await masterKey(), key, 'the master key is unchanged');
    assert.equal((await users()).length, 1, 'still one administrator');
  });

  it('user create adds a user (and refuses an invalid e-mail, a short or guessable password or a taken e-mail, creating nothing)', async () => {
    const [ok, badEmail, shortPassword, taken, weak] = await Promise.all([
      cirrus('user', 'create', '--email', 'Dev@Example.com', '--password', 'dev-password-1', '--nickname', 'Dev'),
      cirrus('user', 'create', '--email', 'not-an-email', '--password', 'dev-password-1'),
      cirrus('user', 'create', '--email', 'short@example.com', '--password', 'short'),
      cirrus('user', 'create', '--email', OPERATOR_EMAIL.toUpperCase(), '--password', 'dev-password-2'),
      cirrus('user', 'create', '--email', 'weak@example.com', '--password', 'password1'),
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    const uid = /UID (\S+?)\.?$/m.exec(ok.stdout)?.[1];
    assert.ok(uid, ok.stdout);
    assert.notEqual(badEmail.code, 0);
    assert.match(badEmail.stderr, /e-mail/);
    assert.notEqual(shortPassword.code, 0);
    assert.notEqual(taken.code, 0);
    assert.match(taken.stderr, /already registered/);
    assert.notEqual(weak.code, 0);
    assert.match(weak.stderr, /too easy to guess/);
    assert.deepEqual(
      (await users()).map((u) => [u.email, u.is_admin]),
      [
        ['dev@example.com', 0],
        [OPERATOR_EMAIL, 1],
      ],
    );
    assert.equal((await users()).find((u) => u.email === 'dev@example.com')?.id, uid);
  });

  it('token issue --user <email|UID> --ttl 1h prints a method C token the running API accepts; a bad or over-24 h --ttl prints none', async () => {
    const [issued, byUid, badTtl, longTtl] = await Promise.all([
      cirrus('token', 'issue', '--user', 'dev@example.com', '--ttl', '1h'),
      cirrus('token', 'issue', '--user', (await users()).find((u) => u.email === OPERATOR_EMAIL)!.id),
      cirrus('token', 'issue', '--user', 'nobody@example.com', '--ttl', 'forever'),
      // Revocation events live 24 h; a longer token could outlive the ban that cut it off.
      cirrus('token', 'issue', '--user', 'dev@example.com', '--ttl', '2d'),
    ]);
    assert.equal(issued.code, 0, issued.stderr);
    const token = issued.stdout.trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'stdout is the token alone');
    const claims = decodeJwt(token);
    assert.deepEqual(Object.keys(claims).sort(), ['exp', 'nbf', 'sub', 'token_type']);
    assert.equal(claims.token_type, 'access');
    assert.equal((claims.exp as number) - (claims.nbf as number), 3600);
    assert.ok(Math.abs((claims.nbf as number) - nowSeconds()) < 120);
    assert.equal(byUid.code, 0, byUid.stderr);
    assert.notEqual(badTtl.code, 0);
    assert.equal(badTtl.stdout, '', 'nothing that looks like a token is printed on failure');
    assert.notEqual(longTtl.code, 0, 'a token may live at most 24 h');
    assert.equal(longTtl.stdout, '');
    assert.match(longTtl.stderr, /24 h/);

    let built: BuiltApp | undefined;
    try {
      built = await buildApp(loadConfig({ ...fresh.env, CIRRUS_PORT: '0' }), { logger: false });
      const api = new Api((await built.app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1'));
      const me = await api.get<UserView>('/api/v4/user/me', { token });
      assert.equal(me.status, 200);
      assert.equal(me.body.data.email, 'dev@example.com');
      assert.equal(me.body.data.id, claims.sub);
      const admin = await api.get<UserView>('/api/v4/user/me', { token: byUid.stdout.trim() });
      assert.equal(admin.body.data.email, OPERATOR_EMAIL);
      assert.equal(admin.body.data.is_admin, true);
    } finally {
      await built?.app.close();
    }
  });

  it('api-contract §4: the master key appears in no output of any command above', async () => {
    const key = await masterKey();
    assert.equal(outputs.length, 2 * 11, 'every run above was captured');
    for (const out of outputs) assert.ok(!out.includes(key), 'the master key is not printed');
  });
});
