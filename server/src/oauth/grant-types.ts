// The grant types an app may be allowed (api-contract §12): each app lists
// the ones it uses, and the token endpoint refuses the others
// (unauthorized_client, RFC 6749 §5.2).
export const AUTHORIZATION_CODE = 'authorization_code';
export const REFRESH_TOKEN = 'refresh_token';
/** RFC 8628 §3.4. */
export const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';

export const GRANT_TYPES = [AUTHORIZATION_CODE, REFRESH_TOKEN, DEVICE_CODE] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
/** What an app may use when its registration does not say (and what apps registered before could). */
export const DEFAULT_GRANT_TYPES: readonly GrantType[] = [AUTHORIZATION_CODE, REFRESH_TOKEN];

export function isGrantType(value: string): value is GrantType {
  return (GRANT_TYPES as readonly string[]).includes(value);
}
