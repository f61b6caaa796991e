// Configuration is read in one place and checked against one schema: a wrong
// setting stops start-up with its name, the rule and (unless it is a secret)
// the value given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ROOT_DIR } from '../../src/paths.js';
import { freshDatabase } from './support.js';

const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message));

describe('configuration', () => {
  it('defaults: port 5212, SQLite under ./data, base URL http://localhost with the port (passkeys need a host name, not an IP)', () => {
    const config = loadConfig({});
    assert.equal(config.port, 5212);
    assert.equal(config.database.kind, 'sqlite');
    // Issue 11: one origin, the one the start-up line prints; localhost, since browsers refuse WebAuthn on an IP address (issue 20).
    assert.equal(config.baseUrl, 'http://localhost:5212');
    assert.equal(config.baseUrlDerived, true);
    assert.equal(config.trustProxy, false);
    assert.equal(config.logLevel, 'info');
  });

  it('issue 11: without CIRRUS_BASE_URL the base URL is derived from the listen address', () => {
    assert.equal(loadConfig({ CIRRUS_HOST: '::' }).baseUrl, 'http://localhost:5212');
    assert.equal(loadConfig({ CIRRUS_HOST: '0.0.0.0' }).baseUrl, 'http://localhost:5212');
    assert.equal(loadConfig({ CIRRUS_HOST: '::1', CIRRUS_PORT: '8080' }).baseUrl, 'http://[::1]:8080');
    assert.equal(loadConfig({ CIRRUS_HOST: '192.168.1.20' }).baseUrl, 'http://192.168.1.20:5212');
    assert.equal(loadConfig({ CIRRUS_HOST: 'localhost' }).baseUrl, 'http://localhost:5212');
    const set = loadConfig({ CIRRUS_HOST: '0.0.0.0', CIRRUS_BASE_URL: 'https://files.example' });
    assert.equal(set.baseUrl, 'https://files.example');
    assert.equal(set.baseUrlDerived, false);
  });

  it('blobs are flushed to the disk unless the benchmark-only CIRRUS_BENCHMARK_NO_FSYNC is set', () => {
    assert.deepEqual(loadConfig({}).storage, { kind: 'local' });
    assert.deepEqual(loadConfig({ CIRRUS_BENCHMARK_NO_FSYNC: 'false' }).storage, { kind: 'local' });
    assert.deepEqual(loadConfig({ CIRRUS_BENCHMARK_NO_FSYNC: 'true' }).storage, { kind: 'local', fsync: false });
    refused({ CIRRUS_BENCHMARK_NO_FSYNC: 'sometimes' }, /CIRRUS_BENCHMARK_NO_FSYNC/);
  });

  it('reads the documented values', () => {
    const config = loadConfig({ CIRRUS_PORT: '8080', CIRRUS_TRUST_PROXY: 'TRUE', CIRRUS_DATABASE_URL: 'postgres://u@db:5432/cirrus', CIRRUS_LOG_LEVEL: 'warn', CIRRUS_BASE_URL: 'https://files.example/' });
    assert.equal(config.port, 8080);
    assert.equal(config.trustProxy, true);
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://u@db:5432/cirrus' });
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.baseUrl, 'https://files.example');
  });

  it('refuses each malformed setting by name, with the rule', () => {
    refused({ CIRRUS_PORT: 'eighty' }, /^CIRRUS_PORT must be a port number, 0 to 65535, got "eighty"$/);
    refused({ CIRRUS_PORT: '70000' }, /^CIRRUS_PORT must be a port number/);
    refused({ CIRRUS_TRUST_PROXY: 'maybe' }, /^CIRRUS_TRUST_PROXY must be true or false/);
    refused({ CIRRUS_LOG_LEVEL: 'loud' }, /^CIRRUS_LOG_LEVEL must be one of fatal, error/);
    refused({ CIRRUS_BASE_URL: 'files.example' }, /^CIRRUS_BASE_URL must be an http:\/\/ or https:\/\/ URL/);
    refused({ CIRRUS_ADMIN_EMAIL: 'root' }, /^CIRRUS_ADMIN_EMAIL must be an e-mail address/);
  });

  it('never repeats a secret in the error: a weak admin password or a database URL with credentials', () => {
    refused({ CIRRUS_ADMIN_PASSWORD: 'abc' }, /^CIRRUS_ADMIN_PASSWORD must be 8 to 128 characters, without NUL \(the same rule as every password\)$/);
    refused({ CIRRUS_DATABASE_URL: 'mysql://root:s3cret@db/cirrus' }, /^CIRRUS_DATABASE_URL must be a postgres:\/\/ URL[^:]*$/);
  });
});

describe('start-up', () => {
  it('issue 11: serve prints exactly one base URL, and it is the OAuth issuer and a working origin', async () => {
    const fresh = await freshDatabase();
    // CIRRUS_HOST unset (every address) and CIRRUS_BASE_URL unset: the case people start with.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...fresh.env, CIRRUS_PORT: '0', CIRRUS_LOG_LEVEL: 'warn', CIRRUS_ADMIN_EMAIL: 'op@example.com', CIRRUS_ADMIN_PASSWORD: 'operator-password-1' };
    const child = spawn(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), 'serve'], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      const printed = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line within 60 s; output: ${output}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const m = /^Cirrus is running at (\S+)$/m.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}; output: ${output}`)));
      });
      assert.match(printed, /^http:\/\/localhost:\d+$/);
      assert.notEqual(new URL(printed).port, '0', 'the real port, not the configured 0');
      const discovery = (await (await fetch(`${printed}/.well-known/openid-configuration`)).json()) as { issuer: string };
      assert.equal(discovery.issuer, printed, 'the printed URL is the issuer');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await fresh.drop();
    }
  });
});
