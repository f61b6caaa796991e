// Content search (api-contract §16, issue 35) through the public API: real
// documents made at test time, each with a unique phrase, found within
// seconds of upload with a correct snippet; the query language; hostile
// queries; and every change of the tree (grant, revocation, trash, restore,
// overwrite, version restore, move, delete) changing what is found.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { put, q, type FileView } from '../files/helpers.js';
import { grant, members, type Member } from '../sharing/helpers.js';
import { makeDocx, makeOdt, makePdf, makePptx, makeXlsx } from './documents.js';

type Hit = FileView & { snippet?: string };
type Page = { files: Hit[]; next_page_token: string | null };

/** A word no other test (or run) can contain: letters only, so every extractor keeps it whole. */
function unique(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
}

describe('content search', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Member;
  let bob: Member;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    [alice, bob] = await members(api, 'Alice', 'Bob');
  });
  after(() => server.close());

  const search = (who: Member, query: string, extra = '') =>
    api.get<Page>(`/api/v4/file/search?q=${encodeURIComponent(query)}${extra}`, { token: who.token });

  async function hits(who: Member, query: string, extra = '&scope=content'): Promise<Hit[]> {
    const res = await search(who, query, extra);
    assert.equal(res.status, 200, res.text);
    return res.body.data.files;
  }

  /** Polls until `query` finds exactly `paths` for `who` (indexing is in the background), within `ms`. */
  async function eventually(who: Member, query: string, paths: string[], ms = 20_000): Promise<Hit[]> {
    const until = Date.now() + ms;
    let last: Hit[] = [];
    while (Date.now() < until) {
      last = await hits(who, query);
      if (JSON.stringify(last.map((h) => h.path).sort()) === JSON.stringify([...paths].sort())) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(last.map((h) => h.path).sort(), [...paths].sort(), `search for ${query} as expected within ${ms} ms`);
    return last;
  }

  it('finds each kind of document by a phrase inside it, with the phrase marked in an escaped snippet', async () => {
    const docs: { path: string; word: string; body: (w: string) => Buffer | string }[] = [
      { path: '/docs/plain.txt', word: unique('plain'), body: (w) => `Some text before. The ${w} keyword, and after.` },
      { path: '/docs/notes.md', word: unique('mark'), body: (w) => `# Title\n\n* a list with **${w}** in it\n` },
      { path: '/src/main.ts', word: unique('code'), body: (w) => `export const answer = '${w}';\n` },
      { path: '/docs/report.pdf', word: unique('pdf'), body: (w) => makePdf(['Quarterly results', `The ${w} figures are final`]) },
      { path: '/docs/letter.docx', word: unique('docx'), body: (w) => makeDocx(['Dear reader,', `please find the ${w} attached.`]) },
      { path: '/docs/sheet.xlsx', word: unique('xlsx'), body: (w) => makeXlsx(['Item', `${w} total`]) },
      { path: '/docs/deck.pptx', word: unique('pptx'), body: (w) => makePptx(['Intro', `Slide about ${w}`]) },
      { path: '/docs/essay.odt', word: unique('odt'), body: (w) => makeOdt(['Chapter one', `An essay on ${w} and more`]) },
    ];
    for (const d of docs) assert.equal((await put(api, alice.token, d.path, d.body(d.word))).status, 200);
    for (const d of docs) {
      const [hit] = await eventually(alice, d.word, [d.path]);
      assert.ok(hit!.snippet, `${d.path} has a snippet`);
      assert.match(hit!.snippet!, new RegExp(`<mark>${d.word}</mark>`), `${d.path}: ${hit!.snippet}`);
    }
    // The snippet of the PDF is the text around the phrase, not the start of the file only.
    const [pdf] = await hits(alice, docs[3]!.word);
    assert.match(pdf!.snippet!, /figures are final/);
  });

  it('finds Chinese (two characters or more) in UTF-8, GB18030 and UTF-16 files', async () => {
    const tag = unique('zh');
    const text = `会议纪要：${tag} 项目预算已经批准，下周开始施工。`;
    await put(api, alice.token, '/zh/utf8.txt', text);
    await put(api, alice.token, '/zh/utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(tag, `${tag}b`), 'utf16le')]));
    // GB18030 bytes of "预算批准 <tag>c" (预 D4A4 算 CBE3 批 C5FA 准 D7BC), written by hand: Node cannot encode it.
    await put(api, alice.token, '/zh/gb.txt', Buffer.concat([Buffer.from([0xd4, 0xa4, 0xcb, 0xe3, 0xc5, 0xfa, 0xd7, 0xbc, 0x20]), Buffer.from(`${tag}c`)]));
    await eventually(alice, tag, ['/zh/utf8.txt', '/zh/utf16.txt', '/zh/gb.txt']);
    assert.deepEqual((await hits(alice, `预算 ${tag}`)).map((h) => h.path).sort(), ['/zh/gb.txt', '/zh/utf16.txt', '/zh/utf8.txt']);
    assert.deepEqual((await hits(alice, `已经批准 ${tag}`)).map((h) => h.path).sort(), ['/zh/utf16.txt', '/zh/utf8.txt']);
    const [hit] = await hits(alice, `项目预算 ${tag}`);
    assert.match(hit!.snippet!, /<mark>项目预算<\/mark>/);
  });

  it('indexes the text of HTML, never its script, and escapes what comes back', async () => {
    const word = unique('html');
    const secret = unique('scripted');
    await put(api, alice.token, '/web/page.html', `<!doctype html><html><head><title>t</title><script>var x = "${secret}";</script></head><body><p>Visible ${word} &amp; &lt;b&gt;bold&lt;/b&gt;</p><script>alert("${secret}")</script></body></html>`);
    const [hit] = await eventually(alice, word, ['/web/page.html']);
    assert.equal(hit!.snippet, `Visible <mark>${word}</mark> &amp; &lt;b&gt;bold&lt;/b&gt;`);
    assert.deepEqual(await hits(alice, secret), []);
  });

  it('ANDs words, matches "a phrase" in order, excludes -word; scope name never looks inside', async () => {
    const w = unique('q');
    await put(api, alice.token, '/q/one.txt', `${w} red apple green pear`);
    await put(api, alice.token, '/q/two.txt', `${w} green apple red pear`);
    await put(api, alice.token, `/q/${w}-name-only.txt`, 'nothing inside');
    await eventually(alice, w, ['/q/one.txt', '/q/two.txt']);
    const paths = async (query: string, extra?: string) => (await hits(alice, query, extra)).map((h) => h.path).sort();
    assert.deepEqual(await paths(`${w} "red apple"`), ['/q/one.txt']);
    assert.deepEqual(await paths(`${w} "apple red"`), ['/q/two.txt']);
    assert.deepEqual(await paths(`${w} apple -"red apple"`), ['/q/two.txt']);
    assert.deepEqual(await paths(`${w} -green`), []);
    assert.deepEqual(await paths(`${w} pear apple`), ['/q/one.txt', '/q/two.txt']);
    assert.deepEqual(await paths(`${w} RED APPLE`), ['/q/one.txt', '/q/two.txt'], 'case-insensitive');
    // scope=all: the name match too (without a snippet); scope=name: only it.
    const all = await hits(alice, w, '&scope=all');
    assert.deepEqual(all.map((h) => h.path).sort(), [`/q/${w}-name-only.txt`, '/q/one.txt', '/q/two.txt'].sort());
    assert.equal(all.find((h) => h.path.includes('name-only'))!.snippet, undefined);
    assert.deepEqual(await paths(w, '&scope=name'), [`/q/${w}-name-only.txt`]);
    // Paging one at a time gives the same set.
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const page: Page = (await search(alice, w, `&scope=all&page_size=1${token ? `&next_page_token=${q(token)}` : ''}`)).body.data;
      seen.push(...page.files.map((f) => f.path));
      token = page.next_page_token;
    } while (token);
    assert.deepEqual(seen.sort(), all.map((h) => h.path).sort());
  });

  it('filters by type and modified date on the server, paging through what passes; says how many files wait for indexing', async () => {
    const w = unique('filt');
    for (const n of ['a', 'b', 'c']) assert.equal((await put(api, alice.token, `/filt/${n}.txt`, `${w} text ${n}`)).status, 200);
    for (const n of ['d', 'e', 'f']) assert.equal((await put(api, alice.token, `/filt/${n}.pdf`, makePdf([`${w} pdf ${n}`]))).status, 200);
    assert.equal((await api.post('/api/v4/file/create', { path: `/filt/${w}-folder`, type: 'folder' }, { token: alice.token })).status, 200);
    await eventually(alice, w, ['/filt/a.txt', '/filt/b.txt', '/filt/c.txt', '/filt/d.pdf', '/filt/e.pdf', '/filt/f.pdf']);
    const all = async (extra: string) => {
      const out: string[] = [];
      let token: string | null = null;
      for (let i = 0; i < 10; i++) {
        const res = await search(alice, w, `${extra}&page_size=1${token ? `&next_page_token=${encodeURIComponent(token)}` : ''}`);
        assert.equal(res.status, 200, res.text);
        out.push(...res.body.data.files.map((f) => f.path));
        token = res.body.data.next_page_token;
        if (!token) break;
      }
      return out.sort();
    };
    // A page of one that passes, the token going on from the last candidate looked at: every item once.
    assert.deepEqual(await all('&type=pdf'), ['/filt/d.pdf', '/filt/e.pdf', '/filt/f.pdf']);
    assert.deepEqual(await all('&type=document'), ['/filt/a.txt', '/filt/b.txt', '/filt/c.txt']);
    assert.deepEqual(await all('&type=folder'), [`/filt/${w}-folder`]);
    assert.deepEqual(await all('&type=image'), []);
    assert.deepEqual(await all(`&modified_after=${new Date(Date.now() + 3_600_000).toISOString()}`), []);
    assert.equal((await all(`&modified_after=${new Date(Date.now() - 3_600_000).toISOString()}`)).length, 7);
    for (const bad of ['&type=spreadsheet', '&modified_after=yesterday']) {
      const res = await search(alice, w, bad);
      assert.equal(res.status, 400, `${bad}: ${res.text}`);
      assert.equal(typeof (res.body as unknown as { msg: string }).msg, 'string');
    }
    // Everything indexed: nothing waits. Only content scopes on a first page say so.
    const first = await search(alice, w, '&scope=all');
    assert.equal((first.body.data as Page & { indexing_pending?: number }).indexing_pending, 0);
    const byName = await search(alice, w, '&scope=name');
    assert.equal((byName.body.data as Page & { indexing_pending?: number }).indexing_pending, undefined);
  });

  it('takes any query: index syntax is text, long or control-character input is a clear 400, never a 5xx', async () => {
    const w = unique('syn');
    await put(api, alice.token, '/syn/a.txt', `${w} uses NEAR(x y) and a*b OR c "quoted" 100% under_score back\\slash`);
    await eventually(alice, w, ['/syn/a.txt']);
    for (const query of ['NEAR(x y)', 'a*b', 'OR', 'AND', 'NOT', '"', '""', '"unclosed', '*', '^', '(', ')', '{}', ':', "'", '\\', '%', '_', '100%', 'under_score', '-', '--', '-"', 'col:val', 'body:x', 'NEAR', '\u{1F600}', '🙂🙂🙂', 'a'.repeat(200)]) {
      for (const scope of ['content', 'all', 'name']) {
        const res = await search(alice, query, `&scope=${scope}`);
        assert.equal(res.status, 200, `${scope} ${JSON.stringify(query)}: ${res.text}`);
      }
    }
    assert.deepEqual((await hits(alice, `${w} "NEAR(x y)"`)).map((h) => h.path), ['/syn/a.txt']);
    assert.deepEqual((await hits(alice, `${w} 100%`)).map((h) => h.path), ['/syn/a.txt']);
    assert.deepEqual((await hits(alice, `${w} 100_`)).map((h) => h.path), [], 'LIKE wildcards are literal');
    for (const bad of ['x'.repeat(5000), 'a\u0000b', 'a\u0001b']) {
      const res = await search(alice, bad);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 40001);
    }
    assert.equal((await search(alice, 'x', '&scope=everything')).status, 400);
  });

  it('finds only what the person may read now: grants, revocation, trash, restore, move', async () => {
    const w = unique('perm');
    await put(api, alice.token, '/proj/plan.txt', `the ${w} plan`);
    await put(api, alice.token, '/private/diary.txt', `my ${w} diary`);
    await eventually(alice, w, ['/proj/plan.txt', '/private/diary.txt']);
    assert.deepEqual(await hits(bob, w), [], 'nothing of another person');
    assert.equal((await grant(api, alice, { path: '/proj', user: bob.email, permission: 'read' })).status, 200);
    await eventually(bob, w, ['/Shared with me/Alice – proj/plan.txt']);
    // Moved within the shared folder: found at the new path.
    assert.equal((await api.post('/api/v4/file/create', { path: '/proj/sub', type: 'folder' }, { token: alice.token })).status, 200);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/proj/plan.txt'], dst: '/proj/sub' }, { token: alice.token })).status, 200);
    await eventually(bob, w, ['/Shared with me/Alice – proj/sub/plan.txt']);
    await eventually(alice, w, ['/proj/sub/plan.txt', '/private/diary.txt']);
    // Revoked: gone at once.
    const grants = await api.get<{ id: string }[]>(`/api/v4/file/access?path=${q('/proj')}`, { token: alice.token });
    assert.equal((await api.delete(`/api/v4/file/access/${grants.body.data[0]!.id}`, undefined, { token: alice.token })).status, 200);
    assert.deepEqual(await hits(bob, w), []);
    // A trashed folder hides what is inside it; restoring brings it back.
    assert.equal((await api.delete('/api/v4/file', { paths: ['/private'] }, { token: alice.token })).status, 200);
    assert.deepEqual((await hits(alice, w)).map((h) => h.path), ['/proj/sub/plan.txt']);
    const trash = await api.get<{ id: string; name: string }[] | { files: { id: string; name: string }[] }>('/api/v4/file/trash', { token: alice.token });
    const items = Array.isArray(trash.body.data) ? trash.body.data : trash.body.data.files;
    const id = items.find((t) => t.name === 'private')!.id;
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [id] }, { token: alice.token })).status, 200);
    assert.deepEqual((await hits(alice, w)).map((h) => h.path).sort(), ['/private/diary.txt', '/proj/sub/plan.txt']);
    // Deleted for good: gone.
    assert.equal((await api.delete('/api/v4/file', { paths: ['/private/diary.txt'], permanent: true }, { token: alice.token })).status, 200);
    assert.deepEqual((await hits(alice, w)).map((h) => h.path), ['/proj/sub/plan.txt']);
  });

  it('pages through live matches past many out of reach: a trashed folder full of matches that sort first, another person\'s copies', async () => {
    // The walk up to a root runs per batch of candidates in name order (query-repository.ts); here the
    // first 150 candidates by name are under a trashed folder, so the page must come from later batches.
    const w = unique('batch');
    const body = `shared words ${w}`;
    const paths = [...Array.from({ length: 150 }, (_, i) => `/old/a-${String(i).padStart(3, '0')}.txt`), '/live/z-1.txt', '/live/z-2.txt', '/live/z-3.txt'];
    for (let i = 0; i < paths.length; i += 10) {
      // 10 at a time: within the per-account budget of uploads in flight.
      for (const res of await Promise.all(paths.slice(i, i + 10).map((p) => put(api, alice.token, p, body)))) assert.equal(res.status, 200, res.text);
    }
    // Bob's copy of the same bytes: never in Alice's results, nor counted against her page.
    assert.equal((await put(api, bob.token, '/mine/a-bob.txt', body)).status, 200);
    await eventually(bob, w, ['/mine/a-bob.txt']);
    for (const until = Date.now() + 30_000; (await hits(alice, w, '&scope=content&page_size=500')).length < paths.length; ) {
      assert.ok(Date.now() < until, `all ${paths.length} of Alice's files indexed within 30 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal((await api.delete('/api/v4/file', { paths: ['/old'] }, { token: alice.token })).status, 200);
    const first = await search(alice, w, '&scope=content&page_size=2');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.data.files.map((h) => h.path), ['/live/z-1.txt', '/live/z-2.txt']);
    assert.ok(first.body.data.next_page_token, 'a further page');
    const second = await search(alice, w, `&scope=content&page_size=2&next_page_token=${encodeURIComponent(first.body.data.next_page_token!)}`);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.data.files.map((h) => h.path), ['/live/z-3.txt']);
    assert.equal(second.body.data.next_page_token, null);
    assert.deepEqual((await hits(bob, w)).map((h) => h.path), ['/mine/a-bob.txt']);
  });

  it('follows overwrites and version restores: the current content answers', async () => {
    const before = unique('before');
    const afterWord = unique('after');
    await put(api, alice.token, '/v/memo.txt', `first draft ${before}`);
    await eventually(alice, before, ['/v/memo.txt']);
    await put(api, alice.token, '/v/memo.txt', `second draft ${afterWord}`);
    await eventually(alice, afterWord, ['/v/memo.txt']);
    assert.deepEqual(await hits(alice, before), [], 'the old text is not found after an overwrite');
    const versions = await api.get<{ id: string; current: boolean }[]>(`/api/v4/file/versions?path=${q('/v/memo.txt')}`, { token: alice.token });
    const old = versions.body.data.find((v) => !v.current)!;
    assert.equal((await api.post('/api/v4/file/versions/restore', { path: '/v/memo.txt', version_id: old.id }, { token: alice.token })).status, 200);
    await eventually(alice, before, ['/v/memo.txt']);
    assert.deepEqual(await hits(alice, afterWord), []);
  });
  it('says files still wait for indexing while they do (just uploaded, then being extracted), and none once they are done', async () => {
    const [carol] = await members(api, 'Carol');
    const w = unique('wait');
    const pending = async () => {
      const res = await search(carol!, w, '&scope=content');
      assert.equal(res.status, 200, res.text);
      return (res.body.data as Page & { indexing_pending?: number }).indexing_pending;
    };
    assert.equal(await pending(), 0, 'nothing uploaded, nothing waits');
    // Megabytes of text: its extraction takes a while, so the search right after the upload sees it waiting.
    const body = Buffer.concat([Buffer.from(`${w} opens this file. `), Buffer.alloc(8 * 1024 * 1024, 'lorem ipsum dolor sit amet ')]);
    assert.equal((await put(api, carol!.token, '/big.txt', body)).status, 200);
    assert.equal(await pending(), 1, 'the new file waits for its text');
    const until = Date.now() + 60_000;
    let n = await pending();
    while (n !== 0 && Date.now() < until) {
      assert.equal(n, 1);
      await new Promise((r) => setTimeout(r, 200));
      n = await pending();
    }
    assert.equal(n, 0, 'nothing waits once the extraction is done');
    // Another person's waiting files are not counted.
    assert.equal((await put(api, alice.token, '/other-big.txt', body)).status, 200);
    assert.equal(await pending(), 0);
  });
});
