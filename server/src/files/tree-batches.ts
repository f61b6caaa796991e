// Whole-subtree operations in bounded batches (issue 19 item 8). On SQLite one
// transaction holding the writer for a 36,000-row delete or copy stalled every
// other client for over a second; here each transaction touches at most
// `rows` rows (250: a few milliseconds to a few tens of milliseconds), and the
// tree stays consistent at every commit:
//
// - Deleting for good: one short transaction detaches the subtree's root and
//   marks it `pending = 1` (no path, no trash listing, no id reaches it); then
//   batches delete the rows deepest first, each batch taking exactly the bytes
//   and blob references of the rows its own DELETE returned off the counters.
//   Each batch touches the root (`updated_at`); a crash leaves a marked root
//   that the `tree_pending` job finishes once it is STALE_MS untouched (so it
//   never races a request still at work); a batch run twice deletes and
//   subtracts nothing the second time.
// - Copying: the new subtree is built under a hidden root (`pending = 2`, no
//   parent, in no listing), each batch charging its own bytes to the quota and
//   adding its blob references; one final transaction reveals it (parent set,
//   `pending = 0`). A failure removes the hidden rows; a crash leaves them to
//   the job, which deletes a copy whose root has not been touched for
//   STALE_MS (each batch touches it).
//
// `used` always equals the bytes of the owner's rows (hidden ones included),
// so the quota stays exact whenever it is read.
import { DomainError, ErrorCode, conflict, notFound } from '../core/errors.js';
import { FILE, newFileId, type FileRow, type FileStore } from './repository.js';
import { mimeFor } from './mime.js';
import type { Clock } from '../core/clock.js';

/** What the batches use of the Tree (tree.ts, which owns them). */
export interface TreeParts {
  readonly store: FileStore;
  readonly clock: Clock;
  collectGarbage(among?: readonly string[]): Promise<number>;
}

/** A pending root untouched this long was abandoned (its runner died): the job deletes its subtree. */
export const STALE_MS = 5 * 60_000;

/** Thrown by a test's `afterBatch` hook: stops an operation as a crash would (nothing cleaned up). */
export class SimulatedCrash extends Error {}

export interface BatchOptions {
  /** Rows per transaction. */
  rows: number;
  /** Test hook, run after each committed batch (`n` from 0). */
  afterBatch?: (op: 'purge' | 'copy', n: number) => void | Promise<void>;
}

/** How far a subtree reaches below its root: levels and bytes added to the root's path. */
export interface Extent {
  depth: number;
  bytes: number;
}

export interface BuiltCopy {
  /** The hidden root (pending = 2). */
  root: FileRow;
  /** Source id -> copy id, for every copied row. */
  ids: Map<string, string>;
  extent: Extent;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class TreeBatches {
  readonly options: BatchOptions = { rows: 250 };

  constructor(private readonly tree: TreeParts) {}

  private get store() {
    return this.tree.store;
  }

  /**
   * Between two batches: lets the event loop serve other requests. With
   * better-sqlite3 every query resolves without I/O, so a loop of awaited
   * transactions would otherwise run to its end in microtasks and the
   * batches would stall other clients as much as one big transaction.
   */
  private async after(op: 'purge' | 'copy', n: number): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
    await this.options.afterBatch?.(op, n);
  }

  private lastYield = 0;

  /** Lets the event loop in when this task has run 10 ms since it last did (reads are synchronous on SQLite too). */
  private async breathe(): Promise<void> {
    if (performance.now() - this.lastYield < 10) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }

  /**
   * The rows below `root`, breadth first (parents before children), read a
   * page of one folder's children per query (the listing index, keyset), so
   * no single read of a big tree holds the database or the event loop.
   */
  private async *walk(root: FileRow): AsyncGenerator<FileRow & { depth: number }> {
    const PAGE = 1000;
    let level = root.kind === FILE ? [] : [root.id];
    for (let depth = 1; level.length; depth++) {
      const next: string[] = [];
      for (const parentId of level) {
        let after: { kind: number; name: string } | null = null;
        for (;;) {
          const page = await this.store.tree.listChildren(parentId, after, PAGE);
          for (const r of page) {
            if (r.kind !== FILE) next.push(r.id);
            yield { ...r, depth };
          }
          await this.breathe();
          const last = page[page.length - 1];
          if (!last || page.length < PAGE) break;
          after = { kind: last.kind, name: last.name };
        }
      }
      level = next;
    }
  }

  /**
   * Deletes a marked (pending = 1) subtree, deepest rows first, one bounded
   * transaction per batch; returns the blobs that lost references (for
   * garbage collection). Idempotent: the jobs runner calls it again after a crash.
   */
  async finishPurge(ownerId: string, rootId: string): Promise<string[]> {
    // Read outside any transaction: nothing can reach a marked subtree, so the list cannot go stale.
    const root = await this.store.tree.findAnyById(rootId);
    if (!root) return [];
    const rows: { id: string; depth: number; parent_id: string | null }[] = [{ id: root.id, depth: 0, parent_id: root.parent_id }];
    for await (const r of this.walk(root)) rows.push({ id: r.id, depth: r.depth, parent_id: r.parent_id });
    // Deepest first, so children go before (or with) their parents; siblings together, so each batch
    // dirties few index pages (rows of a folder sit together in the parent index and, created together, in the table).
    rows.sort((a, b) => b.depth - a.depth || (a.parent_id! < b.parent_id! ? -1 : a.parent_id! > b.parent_id! ? 1 : 0));
    const freed = new Set<string>();
    let n = 0;
    for (const batch of chunks(rows.map((r) => r.id), this.options.rows)) {
      await this.store.transaction(async (s) => {
        // Still at work (for the job's staleness test); the root itself goes in the last batch.
        await s.tree.touchPending(rootId, 1, this.tree.clock.now());
        const gone = await s.tree.deleteRows(batch);
        let bytes = 0;
        const refs = new Map<string, number>();
        for (const r of gone) {
          if (r.kind === FILE) bytes += Number(r.size);
          if (r.blob_id) refs.set(r.blob_id, (refs.get(r.blob_id) ?? 0) + 1);
        }
        // The deleted files' versions (versions.ts) go with them, references and bytes included.
        for (const v of await s.versions.deleteOfFiles(gone.length ? batch : [])) {
          bytes += Number(v.size);
          if (v.blob_id) refs.set(v.blob_id, (refs.get(v.blob_id) ?? 0) + 1);
        }
        await s.blobs.dropRefs(refs);
        if (bytes) await s.usage.adjust(ownerId, { used: -bytes });
        for (const id of refs.keys()) freed.add(id);
      });
      await this.after('purge', n++);
    }
    return [...freed];
  }

  /** Deletes a marked subtree and collects its blobs. */
  async purgeAndCollect(ownerId: string, rootId: string): Promise<void> {
    const freed = await this.finishPurge(ownerId, rootId);
    if (freed.length) await this.tree.collectGarbage(freed);
  }

  /**
   * Builds a copy of `source` (and its subtree unless `shallow`) named `name`
   * under a hidden root, in batches; the caller reveals it with `reveal`.
   * Checks the quota up front and charges each batch as it is inserted.
   */
  async buildCopy(
    ownerId: string,
    source: FileRow,
    name: string,
    quota: number,
    options: { shallow: boolean; ids?: Map<string, string>; check?: (extent: Extent) => void },
  ): Promise<BuiltCopy> {
    // A snapshot of the source, read outside any transaction (the copy is of the tree as it was here).
    const top = await this.store.tree.findById(ownerId, source.id);
    if (!top) throw notFound('File not found');
    const all: (FileRow & { depth: number })[] = [{ ...top, depth: 0 }];
    if (!options.shallow) for await (const r of this.walk(top)) all.push(r);
    const now = this.tree.clock.now();
    const ids = options.ids ?? new Map<string, string>();
    // First pass, numbers only: how far the copy reaches (path limits) and its bytes (quota), before any row is written.
    const reach = new Map<string, number>([[top.id, 0]]);
    const extent: Extent = { depth: 0, bytes: 0 };
    let total = top.kind === FILE ? Number(top.size) : 0;
    for (let i = 1; i < all.length; i++) {
      const r = all[i]!;
      if (r.kind === FILE) total += Number(r.size);
      const bytes = reach.get(r.parent_id!)! + 1 + Buffer.byteLength(r.name, 'utf8');
      if (r.kind !== FILE) reach.set(r.id, bytes);
      if (bytes > extent.bytes) extent.bytes = bytes;
      if (r.depth > extent.depth) extent.depth = r.depth;
      if (i % 2000 === 0) await this.breathe();
    }
    options.check?.(extent);
    const usage = await this.store.usage.get(ownerId);
    if (!usage || usage.used + usage.reserved + total > quota) throw new DomainError(ErrorCode.TooLarge, 'Not enough storage space for this copy');
    // The rows of each batch are made just before it is written (parents come first, so their new ids are known).
    const copyOf = (r: FileRow & { depth: number }): FileRow => {
      const id = newFileId();
      ids.set(r.id, id);
      const { depth, ...row } = r;
      if (depth > 0) return { ...row, id, parent_id: ids.get(r.parent_id!)!, created_at: now, updated_at: now, pending: 0 };
      const rename = name !== r.name ? { name, ...(r.kind === FILE ? { mime_type: mimeFor(name) } : {}) } : {};
      // Hidden: no parent and a trash time keep it out of every path, listing and search; pending = 2 out of the trash.
      return { ...row, id, parent_id: null, created_at: now, updated_at: now, trashed_at: now, trashed_parent_id: null, trashed_path: null, pending: 2, ...rename };
    };
    const root = copyOf(all[0]!);
    try {
      let n = 0;
      for (let start = 0; start < all.length; start += this.options.rows) {
        const batch = start === 0 ? [root, ...all.slice(1, this.options.rows).map(copyOf)] : all.slice(start, start + this.options.rows).map(copyOf);
        await this.store.transaction(async (s) => {
          if (n > 0) {
            // The job deletes a copy left untouched too long; this one must still be ours.
            if (!(await s.tree.touchPending(root.id, 2, this.tree.clock.now()))) throw conflict('The copy was interrupted; try again');
          }
          let bytes = 0;
          const refs = new Map<string, number>();
          for (const r of batch) {
            if (r.kind === FILE) bytes += Number(r.size);
            if (r.blob_id) refs.set(r.blob_id, (refs.get(r.blob_id) ?? 0) + 1);
          }
          if (!(await s.usage.charge(ownerId, bytes, quota))) throw new DomainError(ErrorCode.TooLarge, 'Not enough storage space for this copy');
          await s.tree.insert(batch);
          if (!(await s.blobs.addRefs(refs))) throw conflict('A file changed during the copy; try again');
        });
        await this.after('copy', n++);
      }
    } catch (err) {
      if (!(err instanceof SimulatedCrash)) await this.discard(ownerId, root.id);
      throw err;
    }
    return { root, ids, extent };
  }

  /** Removes a hidden copy (after a failure): marked for deletion, then deleted in batches. */
  async discard(ownerId: string, rootId: string): Promise<void> {
    await this.store.tree.markPending(rootId, 1, this.tree.clock.now());
    await this.purgeAndCollect(ownerId, rootId);
  }

  /**
   * The `tree_pending` job: finishes deletions a crash interrupted and deletes
   * copies whose builder stopped (both untouched for STALE_MS). Returns how
   * many roots it handled.
   */
  async processPending(limit = 100): Promise<number> {
    const staleBefore = this.tree.clock.now() - STALE_MS;
    let handled = 0;
    for (const root of await this.store.tree.pendingRoots(staleBefore, limit)) {
      if (!(await this.store.tree.claimStale(root.id, staleBefore, this.tree.clock.now()))) continue;
      await this.purgeAndCollect(root.owner_id, root.id);
      handled++;
    }
    // The batches before the crash freed blobs that nobody collected: every unreferenced blob (an indexed query).
    if (handled) await this.tree.collectGarbage();
    return handled;
  }
}
