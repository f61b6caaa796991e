// Content search as the rest of the server sees it: answering a query for
// one person (files' search uses it through its ContentPort), and the admin's
// view of the index (counts, failures, reindexing).
import type { Entry } from '../files/tree.js';
import type { ContentHit, ContentPort } from '../files/search.js';
import type { QueryRepository } from './query-repository.js';
import type { IndexCounts, IndexRepository } from './index-repository.js';
import { parseQuery } from './query.js';
import { snippet } from './snippets.js';
import type { Clock } from '../core/clock.js';

/** Characters of text before the first match, and in all, in a snippet. */
const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 220;

export interface SearchStatus extends IndexCounts {
  recent_failures: { name: string | null; reason: string; at: string }[];
}

export class ContentSearch implements ContentPort {
  constructor(
    private readonly query: QueryRepository,
    private readonly index: IndexRepository,
    private readonly clock: Clock,
    /** Told that reindexing queued work (the indexer starts at once). */
    private readonly queued: () => void = () => undefined,
  ) {}

  async search(ownerId: string, q: string, roots: ReadonlyMap<string, Entry>, after: { name: string; id: string } | null, limit: number): Promise<ContentHit[]> {
    const parsed = parseQuery(q);
    if (parsed.include.length === 0) return [];
    const rows = await this.query.search(ownerId, [...roots.keys()], parsed, after, limit);
    const hits: ContentHit[] = [];
    const seen = new Set<string>();
    for (const { via, suffix, doc_id, ...row } of rows) {
      // Reached through two roots (nested shares): the first answers.
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const root = roots.get(via);
      const base = root ? root.path : '/';
      const path = suffix === '' ? base : base === '/' ? suffix : `${base}${suffix}`;
      hits.push({ entry: { row, path }, docId: doc_id, snippet: '' });
    }
    const windows = await this.query.windows([...new Set(hits.map((h) => h.docId))], parsed.include, SNIPPET_BEFORE, SNIPPET_LENGTH);
    for (const h of hits) {
      const w = windows.get(h.docId);
      if (w) h.snippet = snippet(w.text, w.start, [...w.text].length >= SNIPPET_LENGTH, parsed.include);
    }
    return hits;
  }

  pending(ownerId: string): Promise<number> {
    return this.query.pending(ownerId, this.clock.now());
  }

  async status(): Promise<SearchStatus> {
    const counts = await this.index.counts();
    const failures = await this.index.failures(20);
    return { ...counts, recent_failures: failures.map((f) => ({ name: f.name, reason: f.reason ?? '', at: new Date(Number(f.updated_at)).toISOString() })) };
  }

  /** Queues every document (or one person's) for extraction again; answers how many. */
  async reindex(ownerId?: string): Promise<number> {
    const n = await this.index.requeue(this.clock.now(), ownerId);
    this.queued();
    return n;
  }
}
