// Who is making the change being recorded, for activity (activity/): set once
// per request at the HTTP boundary (activity/module.ts: after the auth guard
// and body parsing, for the methods that change things; WebDAV sets it when it
// has authenticated), read where the change is recorded (files/events/
// repository.ts). Carried by AsyncLocalStorage so that the dozens of file
// operations need not pass it along; outside a request (jobs, the CLI) there
// is none and the tree's owner stands for the actor.
import { AsyncLocalStorage } from 'node:async_hooks';

/** A person, or someone through a link (an upload request's uploader, with the name they gave). */
export type Actor = { id: string } | { anonymous: true; name: string | null };

interface Slot {
  actor: Actor | null;
}

const slots = new AsyncLocalStorage<Slot>();

/** Runs `fn` (and everything it continues into) with `actor` as the one acting. */
export function runAs<T>(actor: Actor | null, fn: () => T): T {
  return slots.run({ actor }, fn);
}

/** Names the actor of the current request, when it is known only later (WebDAV's own authentication). */
export function actAs(actor: Actor): void {
  const slot = slots.getStore();
  if (slot) slot.actor = actor;
}

export function currentActor(): Actor | null {
  return slots.getStore()?.actor ?? null;
}
