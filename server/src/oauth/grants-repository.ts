// The only SQL for what users granted to applications and the authorization
// codes issued on those grants.
import { sql, type Expression, type ExpressionBuilder, type UpdateQueryBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { compileOnce, type Slot } from '../db/compiled.js';
import { Batcher, type BatchStats } from '../db/batches.js';
import { dialectOf, type Db, type Dialect } from '../db/database.js';
import { OAUTH_CODE_COLUMNS, OAUTH_GRANT_COLUMNS, SESSION_COLUMNS, type Database, type OAuthCodesTable, type OAuthGrantsTable, type SessionsTable } from '../db/schema.js';

export type GrantRow = Selectable<OAuthGrantsTable>;
export type CodeRow = Selectable<OAuthCodesTable>;
export interface CodeMatch {
  clientId: string;
  redirectUri: string | undefined;
  /** The challenge of the request's code_verifier (RFC 7636 §4.6), or null when it sent none. */
  codeChallenge: string | null;
  /** The thumbprint of the request's DPoP proof key (RFC 9449 §10), or null when it sent no proof. */
  dpopJkt: string | null;
}

/** A family to start from a code: the fields that do not depend on the code, and the lifetimes with and without offline_access. */
export interface FamilyFromCode {
  id: string;
  current_jti: string;
  created_at: number;
  offline: Pick<Selectable<SessionsTable>, 'expires_at' | 'refresh_ttl'>;
  online: Pick<Selectable<SessionsTable>, 'expires_at' | 'refresh_ttl'>;
}

/** The values `matching` compares: slots of the compiled exchange statements. */
interface MatchValues {
  hash: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  dpopJkt: string;
  now: number;
}

/** The values of a family started from a code (see FamilyFromCode). */
interface FamilyValues {
  sid: string;
  jti: string;
  createdAt: number;
  offlineExpiresAt: number;
  offlineRefreshTtl: number | null;
  onlineExpiresAt: number;
  onlineRefreshTtl: number | null;
}

/** A batch's values column by column: one array per value, one element per call (PostgreSQL's batched statements). */
type Columns<V> = { [K in keyof V]: V[K][] };
/** The PostgreSQL type of each value: the element type of its array. */
type ColumnTypes<V> = { [K in keyof V & string]: 'text' | 'bigint' };

/** The calls' values as the batched statement's parameters: one array per value, in the calls' order. */
function columnsOf<V>(types: ColumnTypes<V>, calls: readonly V[]): Columns<V> {
  return Object.fromEntries(Object.keys(types).map((key) => [key, calls.map((values) => values[key as keyof V])])) as unknown as Columns<V>;
}

/** The `req` rows of a batched statement: the arrays unnested in step, one column per value, named after it. */
function unnested<V>(types: ColumnTypes<V>, v: Slot<Columns<V>>) {
  return (Object.keys(types) as (keyof V & string)[]).map((key) => sql`unnest(CAST(${v(key)} AS ${sql.raw(types[key])}[]))`.as(key));
}

/** The PostgreSQL type of each value of an exchange. */
const EXCHANGE_TYPES: ColumnTypes<MatchValues & FamilyValues> = {
  hash: 'text', clientId: 'text', redirectUri: 'text', codeChallenge: 'text', dpopJkt: 'text', now: 'bigint',
  sid: 'text', jti: 'text', createdAt: 'bigint', offlineExpiresAt: 'bigint', offlineRefreshTtl: 'bigint', onlineExpiresAt: 'bigint', onlineRefreshTtl: 'bigint',
};

/** Which of the rules' conditions a request has; each shape is its own compiled statement. */
interface MatchShape {
  challenge: boolean;
  redirectUri: boolean;
  /** A DPoP proof came with the request. */
  dpop: boolean;
}

/** Why a code cannot be exchanged: the rule of CODE_RULES it breaks. */
export type CodeRefusal = 'used' | 'other_client' | 'expired' | 'redirect_uri' | 'challenge' | 'dpop_key';

interface CodeRule {
  refusal: CodeRefusal;
  /** The rule as a condition of the exchange statement (null: the shape has no such condition). */
  condition(eb: ExpressionBuilder<Database, 'oauth_codes'>, v: Slot<MatchValues>, shape: MatchShape): Expression<SqlBool> | null;
  /** The same rule on a row read back, for the fallback that names the broken one. */
  holds(row: CodeRow, match: CodeMatch, now: number): boolean;
}

/**
 * The exchange rules (RFC 6749 §4.1.2–4.1.3, RFC 7636 §4.6), each written
 * once with its two forms side by side: the SQL condition that the
 * one-statement exchange applies, and the test of a row that the fallback
 * uses to say which rule failed. In the fallback's order. A rule added here
 * is enforced by both paths (server/test/sql/ shows the SQL form).
 */
const CODE_RULES: readonly CodeRule[] = [
  // §4.1.2: single use.
  { refusal: 'used', condition: (eb) => eb('oauth_codes.used_at', 'is', null), holds: (row) => row.used_at === null },
  // §4.1.3: issued to the authenticated client.
  { refusal: 'other_client', condition: (eb, v) => eb('oauth_codes.client_id', '=', v('clientId')), holds: (row, m) => row.client_id === m.clientId },
  { refusal: 'expired', condition: (eb, v) => eb('oauth_codes.expires_at', '>', v('now')), holds: (row, _m, now) => row.expires_at > now },
  // §4.1.3: redirect_uri, when the request repeats it, identical to the authorization request's.
  {
    refusal: 'redirect_uri',
    condition: (eb, v, shape) => (shape.redirectUri ? eb('oauth_codes.redirect_uri', '=', v('redirectUri')) : null),
    holds: (row, m) => m.redirectUri === undefined || row.redirect_uri === m.redirectUri,
  },
  // RFC 7636 §4.6: the verifier's challenge equals the stored one; no verifier when none was stored (downgrade, RFC 9700 §4.8.2).
  {
    refusal: 'challenge',
    condition: (eb, v, shape) => (shape.challenge ? eb('oauth_codes.code_challenge', '=', v('codeChallenge')) : eb('oauth_codes.code_challenge', 'is', null)),
    holds: (row, m) => row.code_challenge === m.codeChallenge,
  },
  // RFC 9449 §10: a code bound to a DPoP key (dpop_jkt) needs a proof of that key; an unbound one takes any proof, or none.
  {
    refusal: 'dpop_key',
    condition: (eb, v, shape) =>
      shape.dpop ? eb.or([eb('oauth_codes.dpop_jkt', 'is', null), eb('oauth_codes.dpop_jkt', '=', v('dpopJkt'))]) : eb('oauth_codes.dpop_jkt', 'is', null),
    holds: (row, m) => row.dpop_jkt === null || row.dpop_jkt === m.dpopJkt,
  },
];

/** The first exchange rule `row` breaks for this request, or null when it may be exchanged. */
export function brokenCodeRule(row: CodeRow, match: CodeMatch, now: number): CodeRefusal | null {
  for (const rule of CODE_RULES) if (!rule.holds(row, match, now)) return rule.refusal;
  return null;
}

/** The code (by its hash) and every exchange rule, as one condition. */
function matching(eb: ExpressionBuilder<Database, 'oauth_codes'>, v: Slot<MatchValues>, shape: MatchShape) {
  const conditions = CODE_RULES.map((rule) => rule.condition(eb, v, shape)).filter((c): c is Expression<SqlBool> => c !== null);
  return eb.and([eb('oauth_codes.code_hash', '=', v('hash')), ...conditions]);
}

/** The statement for each shape, compiled on first use (at most eight per statement). */
function byShape<T>(compile: (shape: MatchShape) => T): (match: CodeMatch) => T {
  const compiled = new Map<string, T>();
  return (match) => {
    const shape = { challenge: match.codeChallenge !== null, redirectUri: match.redirectUri !== undefined, dpop: match.dpopJkt !== null };
    const key = `${shape.challenge}/${shape.redirectUri}/${shape.dpop}`;
    let statement = compiled.get(key);
    if (statement === undefined) {
      statement = compile(shape);
      compiled.set(key, statement);
    }
    return statement;
  };
}

/**
 * grantsOfflineAccess (oauth/scopes.ts) in SQL, for the exchange statement,
 * which picks the family's lifetime from the code row's scopes (stored single-
 * space separated, parseScopeParam). A case-sensitive substring search: LIKE
 * is case-insensitive on SQLite, so `OFFLINE_ACCESS` would have matched there
 * and not in JS. Checked equal to the JS form by
 * server/test/oauth/offline-rule.test.ts on both databases.
 */
export function offlineAccessSql(dialect: Dialect, scopes: Expression<string>) {
  const padded = sql<string>`(' ' || ${scopes} || ' ')`;
  return dialect === 'sqlite' ? sql<boolean>`instr(${padded}, ' offline_access ') > 0` : sql<boolean>`strpos(${padded}, ' offline_access ') > 0`;
}

const FAMILY_FROM_CODE_COLUMNS = ['id', 'user_id', 'client_id', 'scopes', 'current_jti', 'created_at', 'expires_at', 'refresh_ttl'] as const;

/** The family's row selected from a code row (`source`: the table, or the consumed row of the WITH). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a builder over the table or over the WITH's row: its columns are referenced by name (sql.ref) and typed here
function familyFromCode<QB extends SelectQueryBuilder<any, any, object>>(dialect: Dialect, from: QB, source: 'oauth_codes' | 'consumed', v: Slot<FamilyValues>) {
  const column = (name: 'user_id' | 'client_id' | 'scopes') => sql.ref<string>(`${source}.${name}`);
  const offline = offlineAccessSql(dialect, column('scopes'));
  const bigint = (value: number | null) => sql<number>`CAST(${value} AS BIGINT)`;
  return from.select([
    sql<string>`${v('sid')}`.as('id'),
    column('user_id').as('user_id'),
    column('client_id').as('client_id'),
    column('scopes').as('scopes'),
    sql<string>`${v('jti')}`.as('current_jti'),
    bigint(v('createdAt')).as('created_at'),
    sql<number>`CASE WHEN ${offline} THEN ${bigint(v('offlineExpiresAt'))} ELSE ${bigint(v('onlineExpiresAt'))} END`.as('expires_at'),
    sql<number | null>`CASE WHEN ${offline} THEN ${bigint(v('offlineRefreshTtl'))} ELSE ${bigint(v('onlineRefreshTtl'))} END`.as('refresh_ttl'),
  ]);
}

/** An app's family as one refresh left it, with the scopes of its user's grant to the app (null: no grant). */
export type RotatedAppFamily = Selectable<SessionsTable> & { grant_scopes: string | null };

/** The values of the refresh's rotation (sessions/service.ts RotationRequest, and the app). */
interface RotationValues {
  sid: string;
  fromJti: string;
  toJti: string;
  now: number;
  siteRefreshTtl: number;
}

/** The PostgreSQL type of each value of a rotation. */
const ROTATION_TYPES: ColumnTypes<RotationValues> = { sid: 'text', fromJti: 'text', toJti: 'text', now: 'bigint', siteRefreshTtl: 'bigint' };

/**
 * The refresh's rotation, written once for the one-refresh statement (slots)
 * and the batched one (the values of each row of `req`): the family moves from
 * `fromJti` to `toJti` if that generation is current and the family is
 * unrevoked and unexpired; its lifetime starts again from `now`. Returns the
 * family and the scopes of its user's grant to the app.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an UPDATE of sessions alone or FROM the batch's rows: the columns are named, the rows typed by the caller
function rotation<QB extends UpdateQueryBuilder<Database, 'sessions', any, any>>(qb: QB, v: Slot<RotationValues>) {
  return qb
    .set({
      current_jti: v('toJti'),
      previous_jti: v('fromJti'),
      rotated_at: v('now'),
      expires_at: sql<number>`CAST(${v('now')} AS BIGINT) + COALESCE(sessions.refresh_ttl, CAST(${v('siteRefreshTtl')} AS BIGINT)) * 1000`,
    })
    .where('sessions.id', '=', v('sid'))
    .where('sessions.current_jti', '=', v('fromJti'))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>=', v('now'))
    // Unqualified: the batch's rows (req) have no column of these names.
    .returning(SESSION_COLUMNS)
    .returning((eb) =>
      eb
        .selectFrom('oauth_grants')
        .select('oauth_grants.scopes')
        .whereRef('oauth_grants.user_id', '=', 'sessions.user_id')
        .whereRef('oauth_grants.client_id', '=', 'sessions.client_id')
        .as('grant_scopes'),
    )
    .$castTo<RotatedAppFamily>();
}

export type GrantWithClient = GrantRow & { client_name: string; client_icon: string; client_homepage_url: string | null };

export class GrantRepository {
  /** Read by every refresh of an app's token: compiled once. */
  private readonly findStatement;

  /** Run by every refresh at the token endpoint: compiled once. */
  private readonly rotateStatement;

  private readonly dialect: Dialect;

  constructor(private readonly db: Db) {
    this.dialect = dialectOf(db);
    this.rotateStatement = compileOnce(db, (v: Slot<RotationValues>) => rotation(db.updateTable('sessions'), v));
    // The batched form is PostgreSQL's (it unnests arrays); SQLite never runs it.
    this.rotateBatchStatement =
      this.dialect === 'postgres'
        ? compileOnce(db, (v: Slot<Columns<RotationValues>>) =>
            rotation(
              db
                .with('req', (db) => db.selectNoFrom(unnested(ROTATION_TYPES, v)))
                .updateTable('sessions')
                .from('req') as unknown as UpdateQueryBuilder<Database, 'sessions', 'sessions', object>,
              ((name: string) => sql.ref(`req.${name}`)) as unknown as Slot<RotationValues>,
            ),
          )
        : null;
    this.findStatement = compileOnce(db, (v: Slot<{ userId: string; clientId: string }>) =>
      db.selectFrom('oauth_grants').select(OAUTH_GRANT_COLUMNS).where('user_id', '=', v('userId')).where('client_id', '=', v('clientId')),
    );
  }

  /** SQLite, first statement: INSERT INTO sessions … SELECT … FROM oauth_codes WHERE the code matches. */
  private readonly startFamilyStatement = byShape((shape) =>
    compileOnce(this.db, (v: Slot<MatchValues & FamilyValues>) =>
      this.db
        .insertInto('sessions')
        .columns(FAMILY_FROM_CODE_COLUMNS)
        .expression(familyFromCode('sqlite', this.db.selectFrom('oauth_codes'), 'oauth_codes', v).where((eb) => matching(eb, v, shape))),
    ),
  );

  /** SQLite, second statement: UPDATE oauth_codes SET used_at, sid WHERE the code still matches RETURNING it. */
  private readonly consumeStatement = byShape((shape) =>
    compileOnce(this.db, (v: Slot<MatchValues & { sid: string }>) =>
      this.db
        .updateTable('oauth_codes')
        .set({ used_at: v('now'), sid: v('sid') })
        .where((eb) => matching(eb, v, shape))
        .returning(OAUTH_CODE_COLUMNS),
    ),
  );

  /**
   * PostgreSQL, one statement: the code is consumed and the family inserted
   * from the consumed row (a data-modifying WITH), committed together.
   */
  private readonly exchangeStatement = byShape((shape) =>
    compileOnce(this.db, (v: Slot<MatchValues & FamilyValues>) =>
      this.db
        .with('consumed', (db) =>
          db
            .updateTable('oauth_codes')
            .set({ used_at: v('now'), sid: v('sid') })
            .where((eb) => matching(eb, v, shape))
            .returning(OAUTH_CODE_COLUMNS),
        )
        .with('family', (db) => db.insertInto('sessions').columns(FAMILY_FROM_CODE_COLUMNS).expression(familyFromCode('postgres', db.selectFrom('consumed'), 'consumed', v)))
        .selectFrom('consumed')
        .select(OAUTH_CODE_COLUMNS),
    ),
  );

  /**
   * PostgreSQL, several refreshes in one statement (db/batches.ts): the same
   * rotation over a row of values per refresh. Two refreshes of one family in
   * a batch: the UPDATE changes the family once and returns it once, with the
   * winner's new jti (unique per refresh), so the other gets nothing and takes
   * the rule-by-rule path (grace window, reuse), as across batches.
   */
  private readonly rotateBatchStatement;

  /** How the PostgreSQL refreshes were batched. */
  readonly rotationBatchStats: BatchStats = { batches: 0, batchedCalls: 0, failedBatches: 0 };

  /** PostgreSQL: concurrent refreshes, batched (db/batches.ts). */
  private readonly rotateBatches = new Batcher<RotationValues, RotatedAppFamily | undefined>(
    async (all) => {
      const byJti = new Map((await this.rotateBatchStatement!.run(columnsOf(ROTATION_TYPES, all))).rows.map((row) => [row.current_jti, row]));
      return all.map((values) => byJti.get(values.toJti));
    },
    async (values) => (await this.rotateStatement.run(values)).rows[0],
    this.rotationBatchStats,
  );

  /**
   * PostgreSQL, several exchanges of one shape in one statement (db/batches.ts):
   * the same consume-and-insert as `exchangeStatement`, over a row of values
   * per exchange (arrays unnested in step) instead of parameters, with the
   * same rules (`matching` reads the row's values instead of slots). Two
   * exchanges of one code in a batch: the UPDATE changes the code once and
   * returns it once, so one gets the tokens and the other takes the
   * fallback, which sees the code used and revokes (a replay, as across
   * batches). Rows come back with their family id (`sid`), unique per exchange.
   */
  private readonly exchangeBatchStatement = byShape((shape) =>
    compileOnce(this.db, (v: Slot<Columns<MatchValues & FamilyValues>>) => {
      const fromReq = ((name: string) => sql.ref(`req.${name}`)) as unknown as Slot<MatchValues>;
      const fromConsumed = ((name: string) => sql.ref(`consumed.${name === 'sid' ? 'sid' : `req_${name}`}`)) as unknown as Slot<FamilyValues>;
      const familyColumns = ['jti', 'createdAt', 'offlineExpiresAt', 'offlineRefreshTtl', 'onlineExpiresAt', 'onlineRefreshTtl'] as const;
      return this.db
        .with('req', (db) => db.selectNoFrom(unnested(EXCHANGE_TYPES, v)))
        .with('consumed', (db) =>
          db
            .updateTable('oauth_codes')
            .from('req')
            .set({ used_at: sql.ref<number>('req.now'), sid: sql.ref<string>('req.sid') })
            .where((eb) => matching(eb as unknown as ExpressionBuilder<Database, 'oauth_codes'>, fromReq, shape))
            .returning([...OAUTH_CODE_COLUMNS.map((c) => sql.ref(`oauth_codes.${c}`).as(c)), ...familyColumns.map((c) => sql.ref(`req.${c}`).as(`req_${c}`))]),
        )
        .with('family', (db) => db.insertInto('sessions').columns(FAMILY_FROM_CODE_COLUMNS).expression(familyFromCode('postgres', db.selectFrom('consumed'), 'consumed', fromConsumed)))
        .selectFrom('consumed')
        .select(OAUTH_CODE_COLUMNS.map((c) => sql.ref(`consumed.${c}`).as(c)))
        .$castTo<CodeRow>();
    }),
  );

  /** PostgreSQL: concurrent exchanges of one shape, batched (db/batches.ts). */
  private readonly exchangeBatches = byShape((shape) => {
    const match: CodeMatch = { clientId: '', redirectUri: shape.redirectUri ? '' : undefined, codeChallenge: shape.challenge ? '' : null, dpopJkt: shape.dpop ? '' : null };
    return new Batcher<MatchValues & FamilyValues, CodeRow | undefined>(
      async (all) => {
        const rows = (await this.exchangeBatchStatement(match).run(columnsOf(EXCHANGE_TYPES, all))).rows;
        const bySid = new Map(rows.map((row) => [row.sid, row]));
        return all.map((values) => bySid.get(values.sid));
      },
      async (values) => (await this.exchangeStatement(match).run(values)).rows[0],
      this.exchangeBatchStats,
    );
  });

  /** How the PostgreSQL exchanges were batched (all shapes together). */
  readonly exchangeBatchStats: BatchStats = { batches: 0, batchedCalls: 0, failedBatches: 0 };

  private matchValues(hash: string, match: CodeMatch, now: number): MatchValues {
    // A shape without the challenge or the redirect_uri condition has no slot for it: '' is never bound.
    return { hash, clientId: match.clientId, redirectUri: match.redirectUri ?? '', codeChallenge: match.codeChallenge ?? '', dpopJkt: match.dpopJkt ?? '', now };
  }

  async find(userId: string, clientId: string): Promise<GrantRow | undefined> {
    return (await this.findStatement.run({ userId, clientId })).rows[0];
  }

  /**
   * A refresh at the token endpoint in one statement (one round trip on
   * PostgreSQL): the family moves from `fromJti` to `toJti` if that
   * generation is current and the family is unrevoked and unexpired; its
   * lifetime starts again from `now`. The user and the app are immutable
   * columns of a family, so the caller compares them on the returned row:
   * in the WHERE they let PostgreSQL's generic plan pick the
   * (user_id, client_id) index over the primary key and scan every family
   * of the user (measured: CPU per refresh grew with each round). The user's grant
   * to the app is read by the same statement, for the family check.
   * Undefined when nothing matched (sessions/service.ts then takes the
   * rule-by-rule path: grace window, reuse detection, the reason).
   */
  async rotateAppFamily(values: RotationValues & { userId: string; clientId: string }): Promise<RotatedAppFamily | undefined> {
    const { sid, fromJti, toJti, now, siteRefreshTtl } = values;
    if (this.dialect === 'postgres') return this.rotateBatches.call({ sid, fromJti, toJti, now, siteRefreshTtl });
    return (await this.rotateStatement.run({ sid, fromJti, toJti, now, siteRefreshTtl })).rows[0];
  }

  async upsert(userId: string, clientId: string, scopes: string, now: number): Promise<void> {
    await this.db
      .insertInto('oauth_grants')
      .values({ user_id: userId, client_id: clientId, scopes, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scopes, updated_at: now }))
      .execute();
  }

  /** Removes the grant and the codes not yet exchanged on it. */
  async delete(userId: string, clientId: string): Promise<boolean> {
    await this.db.deleteFrom('oauth_codes').where('user_id', '=', userId).where('client_id', '=', clientId).where('used_at', 'is', null).execute();
    const res = await this.db.deleteFrom('oauth_grants').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  listForUser(userId: string): Promise<GrantWithClient[]> {
    return this.db
      .selectFrom('oauth_grants')
      .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
      .selectAll('oauth_grants')
      .select(['oauth_clients.name as client_name', 'oauth_clients.icon as client_icon', 'oauth_clients.homepage_url as client_homepage_url'])
      .where('oauth_grants.user_id', '=', userId)
      .orderBy('oauth_grants.created_at')
      .execute();
  }

  async insertCode(row: CodeRow): Promise<void> {
    await this.db.insertInto('oauth_codes').values(row).execute();
  }

  findCode(hash: string): Promise<CodeRow | undefined> {
    return this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  }

  /**
   * The usual exchange: consumes the code only if it matches (see
   * `matching`), records on it the family it produces (the replay rule
   * revokes that family), and inserts the family, whose user, client and
   * scopes come from the code row and whose lifetime depends on
   * offline_access in those scopes. Returns the code row; undefined when any
   * condition fails (the caller then reads the row to say which, or to detect
   * a replay), and then no family exists.
   *
   * PostgreSQL does it in one statement. SQLite, which has no data-modifying
   * WITH, inserts the family first and then consumes the code: a replay that
   * loses the race always finds the winner's family to revoke, and an
   * exchange that loses it removes its own family, which never issued a token.
   */
  async exchange(hash: string, match: CodeMatch, family: FamilyFromCode, now: number): Promise<CodeRow | undefined> {
    const values = {
      ...this.matchValues(hash, match, now),
      sid: family.id,
      jti: family.current_jti,
      createdAt: family.created_at,
      offlineExpiresAt: family.offline.expires_at,
      offlineRefreshTtl: family.offline.refresh_ttl,
      onlineExpiresAt: family.online.expires_at,
      onlineRefreshTtl: family.online.refresh_ttl,
    };
    if (this.dialect === 'postgres') return this.exchangeBatches(match).call(values);
    if ((await this.startFamilyStatement(match).run(values)).changed !== 1) return undefined;
    const row = (await this.consumeStatement(match).run(values)).rows[0];
    if (!row) await this.discardFamily(family.id);
    return row;
  }

  /** Removes a family that never issued a token (its exchange was refused after the statement). */
  async discardFamily(sid: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sid).execute();
  }

  /** Single use: only the one request whose UPDATE finds it unused wins. */
  async consumeCode(hash: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Records the family a code produced; returns when a replay was seen meanwhile (null: none). */
  async attachFamily(hash: string, sid: string): Promise<number | null> {
    const row = await this.db.updateTable('oauth_codes').set({ sid }).where('code_hash', '=', hash).returning('reused_at').executeTakeFirst();
    return row?.reused_at ?? null;
  }

  /** Marks a replay; returns the family the code produced, if it is known yet. */
  async markReused(hash: string, now: number): Promise<string | null> {
    const row = await this.db.updateTable('oauth_codes').set({ reused_at: now }).where('code_hash', '=', hash).returning('sid').executeTakeFirst();
    return row?.sid ?? null;
  }

  async pruneCodes(expiredBefore: number): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<', expiredBefore).execute();
  }
}
