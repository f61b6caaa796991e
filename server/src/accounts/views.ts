// What the API shows of a user. Fields are picked one by one so that nothing
// stored (hashes, TOTP secrets) can leak by accident.
import type { UserWithGroup } from './repository.js';

export interface UserView {
  id: string;
  email: string;
  nickname: string;
  status: 'active' | 'banned';
  created_at: string;
  group: { id: number; name: string };
  is_admin: boolean;
  two_fa_enabled: boolean;
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
  };
}
