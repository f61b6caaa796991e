// What the API shows of a user. Fields are picked one by one so that nothing
// stored (hashes, TOTP secrets) can leak by accident.
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum, View } from '../core/schema.js';
import type { UserWithGroup } from './repository.js';
import { avatarPath } from './avatars.js';

/** The `user` object of api-contract §3; the response schemas use it, so nothing else is sent. */
export const UserViewSchema = View(
  {
    id: Type.String({ description: 'The UID (the tokens\' sub)' }),
    email: Type.String(),
    nickname: Type.String(),
    status: StringEnum(['active', 'banned', 'inactive']),
    created_at: DateTime,
    group: View({ id: Type.Integer(), name: Type.String() }, { title: 'UserGroup' }),
    is_admin: Type.Boolean(),
    two_fa_enabled: Type.Boolean(),
    email_verified: Type.Boolean({ description: 'a link mailed to this address was used (activation, reset or verification)' }),
    avatar_url: Nullable('string', { description: 'Same-origin path of the avatar (256-pixel WebP, versioned), or null for initials' }),
  },
  { title: 'User' },
);
export type UserView = Static<typeof UserViewSchema>;

export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

export function toUserView(u: UserWithGroup): UserView {
  return {
    id: u.id,
    email: u.email,
    nickname: u.nickname,
    // Team folders' principals are never read as users (repository.ts), so 'team' never gets here.
    status: u.status === 'team' ? 'banned' : u.status,
    created_at: rfc3339(u.created_at),
    group: { id: u.group_id, name: u.group_name },
    is_admin: u.group_is_admin === 1,
    two_fa_enabled: u.totp_secret !== null,
    email_verified: u.email_verified === 1,
    avatar_url: u.avatar_at === null || u.avatar_at === undefined ? null : avatarPath(u.id, Number(u.avatar_at)),
  };
}

const meAnswers = new WeakMap<UserWithGroup, string>();

/**
 * The JSON answer of GET /user/me for a row, made once per row object. The
 * route answers from the user cache, whose rows are read-only snapshots
 * shared by the requests of the next few seconds (a change replaces the
 * object), so formatting the date and serializing the view per request was
 * most of what the route cost over /site/ping (docs/benchmarks.md). The
 * fields are toUserView's, which the route's response schema lists
 * (server/test/foundation/openapi.test.ts checks the answer against it).
 */
export function meAnswerJson(u: UserWithGroup): string {
  let json = meAnswers.get(u);
  if (json === undefined) {
    json = JSON.stringify({ code: 0, data: toUserView(u), msg: '' });
    meAnswers.set(u, json);
  }
  return json;
}
