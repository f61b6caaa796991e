// Configuration is read in one place and checked against one schema: a wrong
// setting stops start-up with its name, the rule and (unless it is a secret)
// the value given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';

const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message));

describe('configuration', () => {
  it('defaults: port 5212, SQLite under ./data, base URL on localhost with the port', () => {
    const config = loadConfig({});
    assert.equal(config.port, 5212);
    assert.equal(config.database.kind, 'sqlite');
    assert.match(config.baseUrl, /^http:\/\/localhost:5212$/);
    assert.equal(config.trustProxy, false);
    assert.equal(config.logLevel, 'info');
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
