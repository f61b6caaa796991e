// Whether passkeys can be used on this page (the sign-in page's first load
// needs only this; the ceremonies are in webauthn-ceremony.ts, loaded on demand).

/** True for an IPv4 or IPv6 literal: browsers refuse WebAuthn there (the RP ID must be a domain). */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}

/** Whether this page can use passkeys: the API exists and the site is not on an IP address. */
export function passkeysAvailable(): boolean {
  return typeof window !== 'undefined' && 'PublicKeyCredential' in window && !isIpAddress(window.location.hostname);
}

/** Whether the browser offers passkeys in the autofill of an input marked `webauthn` (conditional UI). */
export async function conditionalMediationAvailable(): Promise<boolean> {
  if (!passkeysAvailable()) return false;
  const pkc = window.PublicKeyCredential as unknown as { isConditionalMediationAvailable?: () => Promise<boolean> };
  try {
    return (await pkc.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** The person cancelled, or the request was aborted: nothing to report. */
export function isCancelled(err: unknown): boolean {
  return err instanceof DOMException && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}
