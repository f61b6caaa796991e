// Issue 32, finding 5: the bytes a stranger has reserved through an
// upload-request link but not sent yet are bounded per link and per address.
// `share_uploads.address` is the client address that created an upload in
// flight; it is cleared when the file arrives (it is needed only to bound
// what one address holds, not to tell the owner who sent what).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('share_uploads').addColumn('address', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('share_uploads').dropColumn('address').execute();
}
