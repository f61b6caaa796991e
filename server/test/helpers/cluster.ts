// Several Cirrus instances serving one site, in this process: one database
// (a fresh PostgreSQL database when CIRRUS_TEST_DATABASE_URL is set, else one
// SQLite file in a shared data directory), and whatever store and Redis the
// caller's environment names.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPgDatabase } from './harness.js';

export interface Instance {
  url: string;
  built: BuiltApp;
}

export interface Cluster {
  instances: Instance[];
  dialect: 'sqlite' | 'postgres';
  /** The environment every instance was started with (child-process instances reuse it). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startCluster(count: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-cluster-'));
  const pgAdminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
  const pgDb = pgAdminUrl ? await createPgDatabase(pgAdminUrl) : undefined;
  const shared: Record<string, string> = {
    CIRRUS_DATA_DIR: dataDir,
    CIRRUS_HOST: '127.0.0.1',
    CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
    CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CIRRUS_LOG_LEVEL: process.env.CIRRUS_TEST_LOG_LEVEL ?? 'silent',
    // The public URL of the site (the load balancer's), the same for every instance.
    CIRRUS_BASE_URL: 'http://cirrus.test',
    ...(pgDb ? { CIRRUS_DATABASE_URL: pgDb.url } : {}),
    ...env,
  };
  const instances: Instance[] = [];
  try {
    // Started together: start-up against one empty database must initialize it once.
    const built = await Promise.all(Array.from({ length: count }, () => buildApp(loadConfig({ ...shared, CIRRUS_PORT: '0' }))));
    for (const b of built) {
      const url = (await b.app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1');
      instances.push({ url, built: b });
    }
  } catch (err) {
    await pgDb?.drop();
    throw err;
  }
  return {
    instances,
    dialect: pgDb ? 'postgres' : 'sqlite',
    env: shared,
    async close() {
      for (const i of instances) await i.built.app.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
