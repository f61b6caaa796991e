// The first hour of a new operator with the command line: nothing but `serve`
// and `init` creates a site, a weak CIRRUS_ADMIN_PASSWORD stops start-up,
// errors are one line with exit 1 (a mistyped command prints the usage and
// exits 2), `--help` lists every option, and the account and app tools work
// against the running API. Run as child processes, the way an operator runs them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ROOT_DIR } from '../../src/paths.js';
import { COMMANDS } from '../../src/cli/run.js';
import { Api, type UserView } from '../helpers/client.js';
import { freshDatabase, type FreshDatabase } from './support.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const OPERATOR_EMAIL = 'operator@example.com';
const OPERATOR_PASSWORD = 'operator-password-1';

function cirrus(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const full: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CIRRUS_LOG_LEVEL: 'silent', ...env };
  return new Promise((resolve) => {
    // The built CLI (npm test builds first): no TypeScript compile per run.
    execFile(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), ...args], { cwd: ROOT_DIR, env: full, timeout: 180_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Tables in the fresh database: none may exist after a refused command. */
async function tableCount(fresh: FreshDatabase): Promise<number> {
  if (fresh.dialect === 'sqlite') return existsSync(path.join(fresh.dataDir, 'cirrus.db')) ? -1 : 0;
  const client = new pg.Client({ connectionString: fresh.env.CIRRUS_DATABASE_URL });
  await client.connect();
  try {
    const res = await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'");
    return res.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe('command line: the first hour', () => {
  let fresh: FreshDatabase;
  let env: Record<string, string>;

  before(async () => {
    fresh = await freshDatabase();
    env = { ...fresh.env, CIRRUS_ADMIN_EMAIL: OPERATOR_EMAIL, CIRRUS_ADMIN_PASSWORD: OPERATOR_PASSWORD };
  });
  after(async () => {
    await fresh.drop();
  });

  it('on an uninitialised site every command but serve and init says so, exits 1 and creates nothing', async () => {
    const runs = await Promise.all([
      cirrus(env, 'user', 'list'),
      cirrus(env, 'user', 'create', '--email', 'x@example.com', '--password', 'x-password-1'),
      cirrus(env, 'token', 'issue', '--user', OPERATOR_EMAIL),
      cirrus(env, 'app', 'list'),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /not? initiali[sz]ed|no initialized Cirrus site/);
      assert.match(run.stderr, /cirrus -- init/);
      assert.equal(run.stderr.trim().split('\n').length, 1, 'one line');
      assert.doesNotMatch(run.stdout + run.stderr, /password:/, 'no admin password was generated');
    }
    assert.equal(await tableCount(fresh), 0, 'no database was created');
  });

  it('a CIRRUS_ADMIN_PASSWORD that breaks the password rules stops init with a clear error', async () => {
    const weak = await cirrus({ ...env, CIRRUS_ADMIN_PASSWORD: 'short' }, 'init');
    assert.equal(weak.code, 1);
    assert.match(weak.stderr, /CIRRUS_ADMIN_PASSWORD must be 8 to 128 characters/);
    assert.equal(await tableCount(fresh), 0, 'no weak administrator was created');
  });

  it('init creates the site; user list shows it; user reset-password prints a one-time password that signs in, and ends the old sessions', async () => {
    const init = await cirrus(env, 'init');
    assert.equal(init.code, 0, init.stderr);
    const list = await cirrus(env, 'user', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`\\S+\\s+${OPERATOR_EMAIL.replace('.', '\\.')}\\s+Administrators\\s+active`));
    assert.match(list.stdout, /1 of 1 users/);

    let built: BuiltApp | undefined;
    try {
      built = await buildApp(loadConfig({ ...fresh.env, CIRRUS_PORT: '0' }), { logger: false });
      const api = new Api((await built.app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1'));
      const before = await api.post<{ user: UserView; token: { access_token: string; refresh_token: string } }>('/api/v4/session/token', { email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD });
      assert.equal(before.status, 200);

      const reset = await cirrus(env, 'user', 'reset-password', '--user', OPERATOR_EMAIL);
      assert.equal(reset.code, 0, reset.stderr);
      const password = /New password for \S+: (\S+)/.exec(reset.stdout)?.[1];
      assert.ok(password && password.length >= 12, reset.stdout);

      assert.equal((await api.post('/api/v4/session/token', { email: OPERATOR_EMAIL, password: OPERATOR_PASSWORD })).status, 401, 'the old password no longer works');
      assert.equal((await api.post('/api/v4/session/token', { email: OPERATOR_EMAIL, password })).status, 200, 'the printed one does');
      const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: before.body.data.token.refresh_token });
      assert.equal(refresh.status, 401, 'the session from before the reset has ended');
    } finally {
      await built?.app.close();
    }

    const unknown = await cirrus(env, 'user', 'reset-password', '--user', 'nobody@example.com');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), 'cirrus: no user nobody@example.com');
  });

  it('app list, app show and app delete manage OAuth apps; show never prints the secret', async () => {
    const created = await cirrus(env, 'app', 'create', '--name', 'Notes', '--redirect-uri', 'https://notes.example/cb', '--scope', 'openid Files.Read');
    assert.equal(created.code, 0, created.stderr);
    const id = /client_id:\s+(\S+)/.exec(created.stdout)?.[1];
    const secret = /client_secret:\s+(\S+)/.exec(created.stdout)?.[1];
    assert.ok(id && secret);

    const list = await cirrus(env, 'app', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`${id}\\s+confidential\\s+yes\\s+Notes`));

    const show = await cirrus(env, 'app', 'show', id);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /redirect_uris:\s+https:\/\/notes\.example\/cb/);
    assert.match(show.stdout, /scopes:\s+openid Files\.Read/);
    assert.ok(!show.stdout.includes(secret), 'the secret is never shown again');

    const deleted = await cirrus(env, 'app', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    const again = await cirrus(env, 'app', 'show', id);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), `cirrus: no OAuth app ${id}`);
  });

  it('a mistyped command prints the usage and exits 2; an error inside a command is one line with exit 1', async () => {
    const [typo, unknownOption, missing, badValue] = await Promise.all([
      cirrus(env, 'usr', 'list'),
      cirrus(env, 'user', 'list', '--colour'),
      cirrus(env, 'user', 'reset-password'),
      cirrus(env, 'user', 'create', '--email', 'not-an-email', '--password', 'long-enough-1'),
    ]);
    for (const run of [typo, unknownOption, missing]) {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /Usage: npm run cirrus --/);
    }
    assert.match(missing.stderr, /needs --user/);
    assert.equal(badValue.code, 1);
    assert.doesNotMatch(badValue.stderr, /Usage/);
    assert.equal(badValue.stderr.trim().split('\n').length, 1);
  });

  it('--help lists every option of every command', async () => {
    const help = await cirrus(env, '--help');
    assert.equal(help.code, 0);
    for (const spec of COMMANDS) {
      assert.ok(help.stdout.includes(`  ${spec.words.join(' ')}`), `${spec.words.join(' ')} is listed`);
      for (const name of Object.keys(spec.options)) assert.ok(help.stdout.includes(`--${name}`), `--${name} of ${spec.words.join(' ')} is listed`);
    }
    for (const words of [['user', 'list'], ['user', 'reset-password'], ['app', 'list'], ['app', 'show'], ['app', 'delete']]) {
      assert.ok(COMMANDS.some((c) => c.words.join(' ') === words.join(' ')), `${words.join(' ')} exists`);
    }
  });
});

describe('command line: start-up errors name their cause', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'cirrus-startup-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('an unreachable PostgreSQL server is named with its host and port (and never its password)', async () => {
    const run = await cirrus({ CIRRUS_DATA_DIR: scratch, CIRRUS_DATABASE_URL: 'postgres://cirrus:hunter2secret@127.0.0.1:1/cirrus' }, 'init');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^cirrus: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/cirrus: .*ECONNREFUSED/);
    assert.ok(!run.stderr.includes('hunter2secret'));
  });

  it('a data directory that cannot be created is named with the reason', async () => {
    const file = path.join(scratch, 'a-file');
    writeFileSync(file, 'x');
    const run = await cirrus({ CIRRUS_DATA_DIR: path.join(file, 'data') }, 'init');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^cirrus: cannot create the data directory .*a-file\/data: ENOTDIR/);
    assert.deepEqual(readdirSync(scratch), ['a-file']);
  });
});
