// API calls of the settings pages, on the client generated from the server's
// OpenAPI document, behind small functions the components call.
import { api, data } from '../../api/client';
import type { OAuthGrant, User, UserSession, UserSettings, paths } from '../../api/generated/schema';

type AvatarType = keyof paths['/api/v4/user/avatar']['put']['requestBody']['content'];

export type { UserSettings };
export type OAuthGrantView = OAuthGrant;

/** The avatar of a user (a versioned same-origin URL), or undefined for initials. */
export function avatarUrl(user: User): string | undefined {
  return user.avatar_url ?? undefined;
}

/**
 * Uploads the picture as the request body (the route takes image bodies, not
 * JSON: the document lists their media types, so the client sends the Blob as
 * it is). Returns the new avatar_url.
 */
export async function uploadAvatar(picture: Blob): Promise<string> {
  const type = picture.type as AvatarType;
  const answer = await data(
    api().PUT('/api/v4/user/avatar', { body: picture, headers: { 'content-type': type }, bodySerializer: (body: Blob) => body }),
  );
  return answer.avatar_url;
}

export const deleteAvatar = () => data(api().DELETE('/api/v4/user/avatar'));

export const getSettings = () => data(api().GET('/api/v4/user/setting'));
export const updateNickname = (nickname: string) => data(api().PATCH('/api/v4/user/setting', { body: { nickname } }));
export const changePassword = (current_password: string, new_password: string) =>
  data(api().PATCH('/api/v4/user/setting', { body: { current_password, new_password } }));
export const begin2fa = () => data(api().POST('/api/v4/user/setting/2fa'));
export const confirm2fa = (otp: string) => data(api().PUT('/api/v4/user/setting/2fa', { body: { otp } }));
export const renewRecoveryCodes = (password: string) => data(api().POST('/api/v4/user/setting/2fa/recovery-codes', { body: { password } }));
export const disable2fa = (otp: string) => data(api().DELETE('/api/v4/user/setting/2fa', { body: { otp } }));
export const revokeGrant = (clientId: string) => data(api().DELETE('/api/v4/session/oauth/grant/{client_id}', { params: { path: { client_id: clientId } } }));

export type SessionView = UserSession;

const sessionId = (id: string) => ({ params: { path: { id } } });
export const listSessions = () => data(api().GET('/api/v4/user/session'));
export const endSession = (id: string) => data(api().DELETE('/api/v4/user/session/{id}', sessionId(id)));
export const endOtherSessions = () => data(api().DELETE('/api/v4/user/session'));

// Passkeys (api-contract §11).
const passkeyId = (id: string) => ({ params: { path: { id } } });
export const listPasskeys = () => data(api().GET('/api/v4/user/authn'));
export const passkeyOptions = () => data(api().PUT('/api/v4/user/authn'));
/** Adding a way into the account needs the current password too (issue 32). */
export const addPasskey = (response: Record<string, unknown>, name: string, password: string) =>
  data(api().POST('/api/v4/user/authn', { body: { response: response as never, name, password } }));
export const renamePasskey = (id: string, name: string) => data(api().PATCH('/api/v4/user/authn/{id}', { ...passkeyId(id), body: { name } }));
export const removePasskey = (id: string) => data(api().DELETE('/api/v4/user/authn/{id}', passkeyId(id)));

// Sign-in methods (docs/features/identity.md "People's own sign-in methods").
export const listIdentities = () => data(api().GET('/api/v4/user/identities'));
/** The provider's URL to open in this browser; its callback links the identity and comes back to /settings/sign-in. */
export const startLinking = (providerId: string) => data(api().POST('/api/v4/user/identities/{id}', { params: { path: { id: providerId } } }));
export const unlinkIdentity = (id: string) => data(api().DELETE('/api/v4/user/identities/{id}', { params: { path: { id } } }));
