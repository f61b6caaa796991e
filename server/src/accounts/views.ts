// What the API shows of a user. Fields are picked one by one so that nothing
// stored (hashes, TOTP secrets) can leak by accident.
import type { UserWithGroup } from './repository.js';
import { avatarPath } from './avatars.js';

export interface UserView {
  id: string;
  email: string;
  nickname: string;
  status: 'active' | 'banned';
  created_at: string;
  group: { id: number; name: string };
  is_admin: boolean;
  two_fa_enabled: boolean;
  /** Same-origin path of the avatar (256-pixel WebP, versioned), or null for initials. */
  avatar_url: string | null;
}

export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

export function toUserView(u: UserWithGroup): UserView {
  return {
    id: u.id,
    email: u.email,
    nickname: u.nickname,
    status: u.status,
    created_at: rfc3339(u.created_at),
    group: { id: u.group_id, name: u.group_name },
    is_admin: u.group_is_admin === 1,
    two_fa_enabled: u.totp_secret !== null,
    avatar_url: u.avatar_at === null || u.avatar_at === undefined ? null : avatarPath(u.id, Number(u.avatar_at)),
  };
}
