// Who besides the owner sees a change. The feed is keyed by the viewer: a
// change in Alice's tree goes to Alice's feed, and also to the feed of each
// person who reaches the changed item another way (an item shared with them,
// a team folder of theirs), with the path as that person addresses it.
//
// Sources are installed at start-up by the features that let others into a
// tree (sharing/audience-repository.ts; team folders install another). They are asked
// only for trees flagged `storage_usage.feed_audience = 1`, a flag read by the
// tree lock every change takes anyway (files/tree.ts), so a change in a tree
// no one else sees costs no query at all here. A source that grants someone
// a view of a tree must set the flag (`UsageRepository.setAudience`) in the
// transaction that grants it; it may leave it set when the last viewer goes
// (asking a source that then answers nothing is merely a wasted query).
import type { Executor } from '../../db/schema.js';
import type { Actor } from '../../core/actor.js';

export type ChangeType = 'created' | 'modified' | 'moved' | 'deleted' | 'restored';

/** What activity (activity/) records: the feed's changes, named more closely, and what is no change of the tree. */
export type ActivityType = ChangeType | 'version_restored' | 'shared' | 'unshared' | 'link_downloaded' | 'link_uploaded';

/** One entry of an item's history, in the owner's terms. */
export interface ActivityNote {
  ownerId: string;
  type: ActivityType;
  row: Changed;
  path: string;
  oldPath: string | null;
  actor: Actor;
  at: number;
}

/** Where the history is written (activity/recorder.ts), in the transaction of the change. */
export interface ActivitySink {
  append(db: Executor, note: ActivityNote): Promise<void>;
}

/** What an event needs of the row it is about. */
export interface Changed {
  id: string;
  kind: number;
  size: number;
}

/** One change of the owner's tree, as the owner's feed records it (owner paths). */
export interface ChangeNote {
  ownerId: string;
  type: ChangeType;
  row: Changed;
  /** Where the item is now (deleted: where it was), in the owner's tree. */
  path: string;
  /** moved: where it was. */
  oldPath: string | null;
}

/** The event one other person gets for a change, in their terms. */
export interface Delivery {
  userId: string;
  type: ChangeType;
  /** The item the event is about (for a whole mount appearing or going: the mounted item). */
  row: Changed;
  path: string;
  oldPath: string | null;
}

export interface FeedAudience {
  /**
   * The other people who see `change`, each with their event (or none).
   * Runs inside the change's transaction, after the change, on `db` (the
   * transaction), so it sees the tree as the change left it. It must not
   * write: the feed appends the deliveries, locking the heads in user order.
   */
  viewers(db: Executor, change: ChangeNote): Promise<Delivery[]>;
}

/** The installed sources (one list for the process; FileStores share it). */
export class FeedAudiences {
  readonly sources: FeedAudience[] = [];

  add(source: FeedAudience): void {
    this.sources.push(source);
  }
}
