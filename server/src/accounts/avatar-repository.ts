// The only place with SQL for avatars (user_avatars, users.avatar_at).
import type { Db } from '../db/database.js';

export class AvatarRepository {
  constructor(private readonly db: Db) {}

  async version(userId: string): Promise<number | null> {
    const row = await this.db.selectFrom('user_avatars').select('updated_at').where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.updated_at) : null;
  }

  async get(userId: string): Promise<{ image: Buffer; updatedAt: number } | undefined> {
    const row = await this.db.selectFrom('user_avatars').select(['image', 'updated_at']).where('user_id', '=', userId).executeTakeFirst();
    return row ? { image: Buffer.from(row.image), updatedAt: Number(row.updated_at) } : undefined;
  }

  /** The picture and the user's avatar version, changed together. */
  async replace(userId: string, image: Buffer, version: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('user_avatars').where('user_id', '=', userId).execute();
      await tx.insertInto('user_avatars').values({ user_id: userId, image, updated_at: version }).execute();
      await tx.updateTable('users').set({ avatar_at: version }).where('id', '=', userId).execute();
    });
  }

  async remove(userId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('user_avatars').where('user_id', '=', userId).execute();
      await tx.updateTable('users').set({ avatar_at: null }).where('id', '=', userId).execute();
    });
  }
}
