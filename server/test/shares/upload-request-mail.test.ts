// Upload requests tell their owner what arrived (issue 22): with mail
// configured, one mail per link and round (the jobs runner's minute), listing
// the files received since the previous mail and who sent them, in the
// owner's language; a round with nothing new sends nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('upload requests: the owner is told by mail', () => {
  let server: InjectedServer;
  let api: Api;
  let smtp: MailCatcher;
  let admin: string;

  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env);
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  async function send(shareId: string, name: string, body: string, uploader?: string): Promise<void> {
    const meta = [`filename ${b64(name)}`, ...(uploader ? [`uploader ${b64(uploader)}`] : [])].join(',');
    const created = await server.fetch(`/api/v4/share/upload/${shareId}`, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(body.length), 'upload-metadata': meta } });
    assert.equal(created.status, 201, await created.text());
    const done = await server.fetch(created.headers.get('location')!, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
    });
    assert.equal(done.status, 204, await done.text());
  }

  const round = () => server.built.services.jobs.run('upload_request_notices');

  it('one mail per round lists every file received and its sender; nothing new, no mail', async () => {
    const email = `uploadreq-mail-${process.pid}@example.com`;
    const { token } = await createUser(api, admin, email);
    const t = token.access_token;
    assert.equal((await api.call('POST', '/api/v4/file/create', { token: t, json: { path: '/Tax papers', type: 'folder' } })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/Tax papers', upload_only: true }, { token: t });
    const id = share.body.data.id;
    await send(id, 'w2.pdf', 'pdf-bytes', 'Jordan');
    await send(id, 'receipt.jpg', 'jpg-bytes');
    await send(id, 'w2.pdf', 'again', 'Jordan');
    await round();
    const mail = await smtp.waitFor(email);
    assert.match(mail.subject, /3 files arrived through your upload link/);
    assert.match(mail.text, /Tax papers/);
    assert.match(mail.text, /w2\.pdf \(Jordan\)/);
    assert.match(mail.text, /receipt\.jpg/);
    assert.match(mail.text, /w2 \(1\)\.pdf \(Jordan\)/, 'the name the file got');
    assert.match(mail.text, /\/files\/Tax%20papers/, 'a link to the folder');
    await round();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(smtp.to(email).length, 1, 'nothing new: no second mail');
    await send(id, 'late.txt', 'late');
    await round();
    const second = await smtp.waitFor(email, 2);
    assert.match(second.subject, /A file arrived through your upload link/);
    assert.match(second.text, /late\.txt/);
    assert.doesNotMatch(second.text, /receipt\.jpg/);
  });
});
