// Unit tests of webdav/if-header.ts: the If header of RFC 4918 §10.4 —
// grammar (§10.4.2), list evaluation (§10.4.3), matching state tokens and
// entity tags (§10.4.4), and submitted lock tokens (§10.4.1, §7.5).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DavError } from '../../src/webdav/errors.js';
import { evaluateIf, parseIf, submittedTokens, type IfList, type ResourceState } from '../../src/webdav/if-header.js';

const T1 = 'urn:uuid:181d4fae-7d8c-11d0-a765-00a0c91e6bf2';
const T2 = 'urn:uuid:58f202ac-22cf-11d1-b12d-002035b29092';

function refused(header: string, message = /Malformed If header/): void {
  assert.throws(
    () => parseIf(header),
    (err: unknown) => {
      assert.ok(err instanceof DavError, String(err));
      assert.equal(err.status, 400);
      assert.match(err.message, message);
      return true;
    },
    JSON.stringify(header),
  );
}

describe('parseIf (RFC 4918 §10.4.2 grammar)', () => {
  it('§10.4.6: a No-tag-list with a state token and an entity tag, then another list', () => {
    assert.deepEqual(parseIf(`(<${T1}> ["I am an ETag"]) (["I am another ETag"])`), [
      { resource: undefined, conditions: [{ not: false, token: T1 }, { not: false, etag: '"I am an ETag"' }] },
      { resource: undefined, conditions: [{ not: false, etag: '"I am another ETag"' }] },
    ]);
  });

  it('§10.4.7: Not applies to the one condition after it', () => {
    assert.deepEqual(parseIf(`(Not <${T1}> <${T2}>)`), [
      { resource: undefined, conditions: [{ not: true, token: T1 }, { not: false, token: T2 }] },
    ]);
  });

  it('§10.4.8: the DAV:no-lock idiom', () => {
    assert.deepEqual(parseIf(`(<${T1}>) (Not <DAV:no-lock>)`), [
      { resource: undefined, conditions: [{ not: false, token: T1 }] },
      { resource: undefined, conditions: [{ not: true, token: 'DAV:no-lock' }] },
    ]);
  });

  it('§10.4.9/§10.4.10: tagged lists; a Resource-Tag applies to every list after it until the next one', () => {
    assert.deepEqual(parseIf(`</resource1> (<${T1}> [W/"A weak ETag"]) (["strong ETag"]) <http://www.example.com/specs/> (<${T2}>)`), [
      { resource: '/resource1', conditions: [{ not: false, token: T1 }, { not: false, etag: 'W/"A weak ETag"' }] },
      { resource: '/resource1', conditions: [{ not: false, etag: '"strong ETag"' }] },
      { resource: 'http://www.example.com/specs/', conditions: [{ not: false, token: T2 }] },
    ]);
  });

  it('whitespace (folded header lines included) is allowed between the parts, and "Not" is case-insensitive', () => {
    assert.deepEqual(parseIf(`\t ( not\t<${T1}>\r\n  ["e"]  )  `), [
      { resource: undefined, conditions: [{ not: true, token: T1 }, { not: false, etag: '"e"' }] },
    ]);
    assert.deepEqual(parseIf(`(<${T1}>)(<${T2}>)`).length, 2);
  });

  it('§10.4.2: a list needs at least one condition', () => {
    refused('()');
    refused(`(<${T1}>) ()`);
  });

  it('§10.4.2: an empty header or one without any list is malformed', () => {
    for (const h of ['', '   ', `<${T1}>`, '<http://example.com/a>  ']) refused(h);
  });

  it('§10.4.2: tagged and untagged lists cannot be mixed', () => {
    refused(`(<${T1}>) </a> (<${T2}>)`);
    refused(`(<${T1}>) (<${T2}>) </b> (<${T2}>)`);
  });

  it('malformed conditions and unbalanced brackets are refused', () => {
    for (const h of [
      '(',
      `(<${T1}>`,
      `(<${T1})`,
      '(["etag")',
      `<${T1}`,
      `(${T1})`,
      '("etag")',
      '(Not)',
      `(<${T1}> Not)`,
      `(Not Not <${T1}>)`,
      `(Nothing <${T1}>)`,
      `((<${T1}>))`,
      `(<${T1}>) garbage`,
      `[${T1}]`,
      `Not (<${T1}>)`,
      '(<a>) )',
    ]) {
      refused(h);
    }
  });

  it('a header over 16 KiB is refused as too long', () => {
    refused(`(<${T1}>)`.repeat(2000), /too long/);
  });

  it(
    '§10.4.2 Tagged-list = Resource-Tag 1*List: a Resource-Tag with no list after it is malformed',
    () => {
      refused('<http://a/> (<urn:x>) <http://b/>');
      refused('</a> </b> (<urn:x>)');
    },
  );

  it(
    '§10.4.2 Condition = ["Not"] (State-token | "[" entity-tag "]"): an entity tag must be a quoted string, a state token an absolute URI',
    () => {
      refused('([unquoted])');
      refused('([])');
      refused('(<>)');
    },
  );

  it(
    'RFC 9110 §8.8.3 etagc includes "]": a quoted entity tag containing "]" is well formed',
    () => {
      assert.deepEqual(parseIf('(["a]b"])'), [{ resource: undefined, conditions: [{ not: false, etag: '"a]b"' }] }]);
    },
  );
});

describe('submittedTokens (RFC 4918 §10.4.1: every state token in the header is submitted)', () => {
  it('collects the tokens of every list, negated ones and those of lists that will not hold included', () => {
    const lists = parseIf(`</a> (<${T1}> ["x"]) (Not <DAV:no-lock>) </b> (Not <${T2}>) (<${T1}>)`);
    assert.deepEqual([...submittedTokens(lists)].sort(), ['DAV:no-lock', T1, T2].sort());
  });

  it('entity tags are not tokens', () => {
    assert.deepEqual([...submittedTokens(parseIf('(["a"] [W/"b"])'))], []);
  });
});

describe('evaluateIf (RFC 4918 §10.4.3, §10.4.4)', () => {
  const STATE: ResourceState = { etag: '"v1"', tokens: new Set([T1]) };
  const OTHER: ResourceState = { etag: '"v9"', tokens: new Set() };
  const MISSING: ResourceState = { etag: null, tokens: new Set() };

  /** The request URI is STATE; /other is OTHER; /missing does not exist; /outside is unknown (null). */
  const stateOf = async (resource: string | undefined): Promise<ResourceState | null> => {
    if (resource === undefined || resource === '/dav/a') return STATE;
    if (resource === '/other') return OTHER;
    if (resource === '/missing') return MISSING;
    return null;
  };
  const holds = (header: string) => evaluateIf(parseIf(header), stateOf);

  it('§10.4.3: a list is a conjunction of its conditions', async () => {
    assert.equal(await holds(`(<${T1}> ["v1"])`), true);
    assert.equal(await holds(`(<${T1}> ["v2"])`), false);
    assert.equal(await holds(`(<${T2}> ["v1"])`), false);
  });

  it('§10.4.3: the header is a disjunction of its lists', async () => {
    assert.equal(await holds(`(<${T2}>) (["v1"])`), true);
    assert.equal(await holds(`(<${T2}>) (["v2"])`), false);
  });

  it('§10.4.3: Not inverts one condition', async () => {
    assert.equal(await holds(`(Not <${T2}>)`), true);
    assert.equal(await holds(`(Not <${T1}>)`), false);
    assert.equal(await holds('(Not ["v2"] ["v1"])'), true);
  });

  it('§10.4.8: (<token>) (Not <DAV:no-lock>) holds with or without the lock', async () => {
    assert.equal(await holds(`(<${T2}>) (Not <DAV:no-lock>)`), true);
  });

  it('§10.4.4: state tokens match only a lock that applies to the resource', async () => {
    assert.equal(await holds(`</other> (<${T1}>)`), false);
    assert.equal(await holds(`</dav/a> (<${T1}>)`), true);
  });

  it('entity tags compare by the weak comparison: W/ on either side matches the same opaque tag', async () => {
    assert.equal(await holds('([W/"v1"])'), true);
    assert.equal(await evaluateIf(parseIf('(["v1"])'), async () => ({ etag: 'W/"v1"', tokens: new Set() })), true);
    assert.equal(await holds('(["V1"])'), false);
    assert.equal(await evaluateIf(parseIf('(["v1"])'), async () => ({ etag: 'v1', tokens: new Set() })), false, 'quotes are part of the tag');
  });

  it('§10.4.4: a resource that does not exist has no entity tag and no lock: only Not conditions hold', async () => {
    assert.equal(await holds('</missing> (["v1"])'), false);
    assert.equal(await holds(`</missing> (<${T1}>)`), false);
    assert.equal(await holds('</missing> (Not ["v1"])'), true);
    assert.equal(await holds('</missing> (Not <DAV:no-lock>)'), true);
  });

  it('a list whose resource state is unknown (null) is false, whatever its conditions', async () => {
    assert.equal(await holds('</outside> (Not <DAV:no-lock>)'), false);
    assert.equal(await holds(`</outside> (Not <DAV:no-lock>) </dav/a> (<${T1}>)`), true);
  });

  it('each tagged list is evaluated against its own resource', async () => {
    const asked: (string | undefined)[] = [];
    const spy = async (r: string | undefined) => {
      asked.push(r);
      return stateOf(r);
    };
    assert.equal(await evaluateIf(parseIf(`</other> (<${T1}>) </dav/a> (<${T1}>)`), spy), true);
    assert.deepEqual(asked, ['/other', '/dav/a']);
  });

  it('stops at the first list that holds', async () => {
    const asked: (string | undefined)[] = [];
    const lists: IfList[] = parseIf(`</dav/a> (<${T1}>) </other> (<${T1}>)`);
    await evaluateIf(lists, async (r) => {
      asked.push(r);
      return stateOf(r);
    });
    assert.deepEqual(asked, ['/dav/a']);
  });
});
