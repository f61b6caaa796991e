// Content search assembled: the index's repositories, the extraction pool,
// the indexer job (run after each committed change of a tree, and every
// PERIODIC_MS for what other instances wrote), and the admin routes.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { Jobs } from '../core/jobs.js';
import type { Clock } from '../core/clock.js';
import type { Foreground } from '../core/foreground.js';
import type { ChangeSignal } from '../files/events/signal.js';
import { IndexRepository } from './index-repository.js';
import { QueryRepository } from './query-repository.js';
import { ContentSearch } from './service.js';
import { DEFAULT_INDEXER, Indexer, type BlobReader, type IndexerOptions } from './indexer.js';
import { DEFAULT_CAPS, ExtractionPool, type ExtractCaps } from './extract/pool.js';
import { searchAdminRoutes } from './routes.js';

/** How often every file is looked at (a cheap indexed anti-join that usually finds nothing). */
const PERIODIC_MS = 30_000;
/** How often docs of deleted content are removed. */
const SWEEP_MS = 600_000;

export interface SearchDeps {
  db: Db;
  blobs: BlobReader;
  changes: ChangeSignal;
  jobs: Jobs;
  clock: Clock;
  caps?: Partial<ExtractCaps>;
  indexer?: Partial<IndexerOptions>;
  /** Background steps wait for a pause in requests (core/foreground.ts). */
  foreground?: Foreground;
}

export interface Search {
  content: ContentSearch;
  indexer: Indexer;
  /** Runs the indexer now and resolves when it is idle (CLI, tests). */
  indexNow(): Promise<void>;
  stop(): Promise<void>;
}

export function createSearch(deps: SearchDeps): Search {
  const index = new IndexRepository(deps.db);
  const pool = new ExtractionPool({ ...DEFAULT_CAPS, ...deps.caps });
  const indexer = new Indexer(index, deps.blobs, pool, deps.clock, { ...DEFAULT_INDEXER, ...deps.indexer, pause: deps.foreground?.pause });
  const kick = () => void deps.jobs.run('search_index');
  const content = new ContentSearch(new QueryRepository(deps.db), index, deps.clock, () => {
    indexer.lookEverywhere();
    kick();
  });
  deps.changes.on((owners) => {
    indexer.changed(owners);
    kick();
  });
  let stopped = false;
  // No timer of its own: run after changes, by the rescan below, and again at once while work remains.
  deps.jobs.every('search_index', 0, async () => {
    if (await indexer.run()) setTimeout(() => !stopped && kick(), 50).unref();
  });
  deps.jobs.every(
    'search_rescan',
    PERIODIC_MS,
    async () => {
      indexer.lookEverywhere();
      await deps.jobs.run('search_index');
    },
    { firstAfterMs: 1_000 },
  );
  deps.jobs.every('search_sweep', SWEEP_MS, () => index.sweep(1000), { firstAfterMs: 60_000 });
  return {
    content,
    indexer,
    async indexNow() {
      indexer.lookEverywhere();
      await deps.jobs.run('search_index');
    },
    async stop() {
      stopped = true;
      indexer.stop();
      await pool.close();
    },
  };
}

export function searchModuleRoutes(app: FastifyInstance, search: Search): void {
  searchAdminRoutes(app, search.content);
}
