// Who made a change, for activity (activity/): the files layer takes it as a
// value at each change (FilesService.mutate, files/repository.ts FileStore),
// from the person its operation is for (`actorId`), an upload's author, or a
// link's uploader. It is not carried implicitly (AsyncLocalStorage): in
// Node 20 that turns on promise hooks for the whole process, which cost about
// 8 % of a WebDAV PUT's CPU (bench/audit-cost.mjs, docs/benchmarks.md).
// Without one (jobs, the CLI) the tree's owner stands for the actor.

/** A person, or someone through a link (an upload request's uploader, with the name they gave). */
export type Actor = { id: string } | { anonymous: true; name: string | null };

/** The actor that is the person `id`; null for none (the owner then stands for it). */
export function personActor(id: string | null | undefined): Actor | null {
  return id ? { id } : null;
}
