// Durable oidc-provider adapters for bench/oauth-provider.mjs, so that
// oidc-provider stores its codes, grants and tokens in the same database as
// Cirrus in each comparison (docs/benchmarks.md). The adapter interface is
// oidc-provider's (lib/adapters/memory_adapter.js): upsert, find,
// findByUserCode, findByUid, consume, destroy, revokeByGrantId. The layout is
// the one of oidc-provider's example SQL adapters: one table for every model,
// the payload as JSON, and the columns the secondary look-ups need, indexed.
import SQLite from 'better-sqlite3';
import pg from 'pg';

const epochSeconds = () => Math.floor(Date.now() / 1000);
const expiry = (expiresIn) => (typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null);
/** The payload oidc-provider expects back: `consumed` is the epoch second it was consumed. */
const loaded = (payload, consumedAt) => (consumedAt == null ? payload : { ...payload, consumed: Number(consumedAt) });

/**
 * SQLite through better-sqlite3: a file, WAL, the same pragmas as Cirrus's
 * server/src/db/database.ts. Statements are prepared once (Cirrus caches its
 * prepared statements too). better-sqlite3 is synchronous; the methods are
 * async because the interface is.
 */
export function sqliteAdapter(file) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS oidc_models (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload TEXT NOT NULL,
    grant_id TEXT,
    uid TEXT,
    user_code TEXT,
    expires_at INTEGER,
    consumed_at INTEGER,
    PRIMARY KEY (model, id)
  );
  CREATE INDEX IF NOT EXISTS oidc_models_grant_id ON oidc_models (grant_id);
  CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (uid);
  CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (user_code);
  CREATE INDEX IF NOT EXISTS oidc_models_expires_at ON oidc_models (expires_at);`);
  const live = '(expires_at IS NULL OR expires_at > ?)';
  const s = {
    upsert: db.prepare(`INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
      ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`),
    find: db.prepare(`SELECT payload, consumed_at FROM oidc_models WHERE model = ? AND id = ? AND ${live}`),
    findByUid: db.prepare(`SELECT payload, consumed_at FROM oidc_models WHERE model = ? AND uid = ? AND ${live}`),
    findByUserCode: db.prepare(`SELECT payload, consumed_at FROM oidc_models WHERE model = ? AND user_code = ? AND ${live}`),
    consume: db.prepare('UPDATE oidc_models SET consumed_at = ? WHERE model = ? AND id = ?'),
    destroy: db.prepare('DELETE FROM oidc_models WHERE model = ? AND id = ?'),
    revokeByGrantId: db.prepare('DELETE FROM oidc_models WHERE model = ? AND grant_id = ?'),
  };
  const row = (r) => (r ? loaded(JSON.parse(r.payload), r.consumed_at) : undefined);
  class SqliteAdapter {
    constructor(model) {
      this.model = model;
    }
    async upsert(id, payload, expiresIn) {
      s.upsert.run(this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiry(expiresIn));
    }
    async find(id) {
      return row(s.find.get(this.model, id, Date.now()));
    }
    async findByUid(uid) {
      return row(s.findByUid.get(this.model, uid, Date.now()));
    }
    async findByUserCode(userCode) {
      return row(s.findByUserCode.get(this.model, userCode, Date.now()));
    }
    async consume(id) {
      s.consume.run(epochSeconds(), this.model, id);
    }
    async destroy(id) {
      s.destroy.run(this.model, id);
    }
    async revokeByGrantId(grantId) {
      s.revokeByGrantId.run(this.model, grantId);
    }
  }
  return { Adapter: SqliteAdapter, close: () => db.close() };
}

/**
 * PostgreSQL through a pg pool of 10 (Cirrus's size), payload as jsonb.
 * Every statement is named (prepared once per connection, then only bound
 * and executed), as Cirrus's token-endpoint statements are.
 */
export async function postgresAdapter(url) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {});
  await pool.query(`CREATE TABLE IF NOT EXISTS oidc_models (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload JSONB NOT NULL,
    grant_id TEXT,
    uid TEXT,
    user_code TEXT,
    expires_at BIGINT,
    consumed_at BIGINT,
    PRIMARY KEY (model, id)
  );
  CREATE INDEX IF NOT EXISTS oidc_models_grant_id ON oidc_models (grant_id);
  CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (uid);
  CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (user_code);
  CREATE INDEX IF NOT EXISTS oidc_models_expires_at ON oidc_models (expires_at);`);
  const live = '(expires_at IS NULL OR expires_at > $3)';
  const names = new Map();
  const query = (text, values) => {
    if (!names.has(text)) names.set(text, `oidc_${names.size}`);
    return pool.query({ name: names.get(text), text, values });
  };
  const one = async (text, values) => {
    const r = (await query(text, values)).rows[0];
    return r ? loaded(r.payload, r.consumed_at) : undefined;
  };
  class PostgresAdapter {
    constructor(model) {
      this.model = model;
    }
    async upsert(id, payload, expiresIn) {
      await query(
        `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiry(expiresIn)],
      );
    }
    find(id) {
      return one(`SELECT payload, consumed_at FROM oidc_models WHERE model = $1 AND id = $2 AND ${live}`, [this.model, id, Date.now()]);
    }
    findByUid(uid) {
      return one(`SELECT payload, consumed_at FROM oidc_models WHERE model = $1 AND uid = $2 AND ${live}`, [this.model, uid, Date.now()]);
    }
    findByUserCode(userCode) {
      return one(`SELECT payload, consumed_at FROM oidc_models WHERE model = $1 AND user_code = $2 AND ${live}`, [this.model, userCode, Date.now()]);
    }
    async consume(id) {
      await query('UPDATE oidc_models SET consumed_at = $1 WHERE model = $2 AND id = $3', [epochSeconds(), this.model, id]);
    }
    async destroy(id) {
      await query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [this.model, id]);
    }
    async revokeByGrantId(grantId) {
      await query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }
  }
  return { Adapter: PostgresAdapter, close: () => pool.end() };
}
