// Folder ETags for the sync clients (api-contract §14): a folder's ETag
// changes whenever anything beneath it changes, and only then, so a client
// that finds the root's ETag unchanged walks nothing below it.
//
// The tags are folded from the change feed (files/events), which records
// every change of a person's tree, in their own paths, in commit order. For
// each event, every folder above its path (and above its old path, for a
// move) gets the event's number; a folder that itself arrived at a path
// (moved, restored, created) stamps its whole subtree, since the paths of
// everything beneath it are new. A folder's tag is the largest of its own
// number, the stamps of it and its ancestors, and the person's floor. The
// fold runs on read, from where the last read left off, and only grows, so
// any instance reading the same feed hands out the same tags. When the feed
// was pruned past the last fold, the floor moves to the feed's head: every
// folder changes once, and nothing is missed.
import type { FeedService } from '../files/events/feed.js';
import type { FolderTag, SyncRepository, TagHead } from './repository.js';

const PAGE = 500;
const MOVED_HERE = new Set(['moved', 'restored', 'created']);

/** '/', '/a', '/a/b' for '/a/b/c' (strict ancestors). */
export function ancestorsOf(path: string): string[] {
  if (path === '/') return [];
  const out = ['/'];
  for (let i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i));
  return out;
}

export class FolderTags {
  constructor(
    private readonly repo: SyncRepository,
    private readonly feed: Pick<FeedService, 'current' | 'page'>,
  ) {}

  /** The tag of each folder path of the person's tree, after folding every change made so far. */
  async of(userId: string, folders: readonly string[]): Promise<Map<string, number>> {
    const head = await this.fold(userId);
    const need = new Set<string>();
    for (const p of folders) {
      need.add(p);
      for (const a of ancestorsOf(p)) need.add(a);
    }
    const rows = new Map((await this.repo.tags(userId, [...need])).map((r) => [r.path, r]));
    const out = new Map<string, number>();
    for (const p of folders) {
      let tag = Math.max(head.floor, rows.get(p)?.seq ?? 0, rows.get(p)?.stamp ?? 0);
      for (const a of ancestorsOf(p)) tag = Math.max(tag, rows.get(a)?.stamp ?? 0);
      out.set(p, tag);
    }
    return out;
  }

  /** Folds the events after the person's head into their tags; returns the new head. */
  private async fold(userId: string): Promise<TagHead> {
    let head = await this.repo.tagHead(userId);
    if (!head) {
      await this.repo.startTags(userId, await this.feed.current(userId));
      head = (await this.repo.tagHead(userId))!;
    }
    for (;;) {
      const page = await this.feed.page(userId, String(head.applied), PAGE);
      if (page.reset) {
        const at = Number(page.cursor);
        head = { applied: at, floor: Math.max(head.floor, at) };
        await this.repo.foldTags(userId, [], head);
        return head;
      }
      if (page.events.length === 0) return head;
      const tags = new Map<string, FolderTag>();
      const bump = (path: string, seq: number, field: 'seq' | 'stamp') => {
        const t = tags.get(path) ?? { path, seq: 0, stamp: 0 };
        t[field] = Math.max(t[field], seq);
        tags.set(path, t);
      };
      for (const e of page.events) {
        const seq = Number(e.id);
        for (const a of ancestorsOf(e.path)) bump(a, seq, 'seq');
        if (e.old_path !== undefined) for (const a of ancestorsOf(e.old_path)) bump(a, seq, 'seq');
        if (e.is_dir && MOVED_HERE.has(e.type)) bump(e.path, seq, 'stamp');
      }
      head = { applied: Number(page.cursor), floor: head.floor };
      await this.repo.foldTags(userId, [...tags.values()], head);
      if (!page.has_more) return head;
    }
  }
}
