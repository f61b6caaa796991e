// Logs on a terminal are readable lines, elsewhere pino JSON
// (ops/readable-log.ts), and the readable lines leak no more than the JSON:
// redaction happens before the formatter sees a line.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { formatLogLine, logDestination } from '../../src/ops/readable-log.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { startLoggedServer, type LoggedServer } from './support.js';

const fakeStdout = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY }) as unknown as NodeJS.WriteStream;

describe('log format', () => {
  it('auto: JSON when stdout is not a terminal, readable lines when it is; json and pretty force one', () => {
    assert.equal(logDestination('auto', fakeStdout(false)), undefined);
    assert.notEqual(logDestination('auto', fakeStdout(true)), undefined);
    assert.equal(logDestination('json', fakeStdout(true)), undefined);
    assert.notEqual(logDestination('pretty', fakeStdout(false)), undefined);
  });

  it('a completed request is one line: time, level, request id, method, URL, status, duration, message', () => {
    const line = JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 9, 41, 7, 123), pid: 1, hostname: 'h', reqId: 'req-3', req: { method: 'GET', url: '/api/v4/user/me' }, res: { statusCode: 200 }, responseTime: 1.42, msg: 'request completed' });
    assert.equal(formatLogLine(line, false), '09:41:07.123 INFO  req-3 GET /api/v4/user/me 200 1.4 ms  request completed');
  });

  it('other fields follow as key=value; an error brings its stack, indented', () => {
    const out = formatLogLine(JSON.stringify({ level: 50, time: 0, job: 'outbox', attempts: 3, note: 'two words', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' }, msg: 'job failed' }), false)!;
    assert.match(out, /^00:00:00\.000 ERROR {2}job failed job=outbox attempts=3 note="two words"\n {4}Error: boom\n {8}at x$/);
  });

  it('a line that is not a JSON object is not formatted', () => {
    assert.equal(formatLogLine('plain text', false), null);
    assert.equal(formatLogLine('[1,2]', false), null);
  });
});

describe('readable logs of a running server', () => {
  let server: LoggedServer;
  before(async () => {
    server = await startLoggedServer({ readable: true });
  });
  after(() => server.close());

  it('show requests as readable lines and no credential', async () => {
    const api = new Api(server);
    const { token } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal((await api.get('/api/v4/user/me', { token: token.access_token })).status, 200);
    assert.equal((await api.get(`/api/v4/no-such-route?refresh_token=${token.refresh_token}`)).status, 404);
    const logs = server.logs();
    assert.match(logs, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\S+ GET \/api\/v4\/user\/me 200 [\d.]+ ms {2}request completed$/m);
    assert.match(logs, /GET \/api\/v4\/no-such-route\?refresh_token=\[redacted\]/);
    assert.doesNotMatch(logs, /^\{/m, 'no JSON line left');
    for (const [name, secret] of [['password', ADMIN_PASSWORD], ['access token', token.access_token], ['refresh token', token.refresh_token], ['refresh signature', token.refresh_token.split('.')[2]!]] as const) {
      assert.ok(!logs.includes(secret), `${name} in the log`);
    }
  });
});
