// Passkey ceremonies with the browser's own WebAuthn API and small base64url helpers
// (no library: the sign-in page stays within its transfer budget). The
// server speaks the JSON forms of WebAuthn Level 3 (§5.1 toJSON, §5.4/§5.5
// options); this module turns them into the binary forms and back.

type Json = Record<string, unknown>;

function toBytes(value: string): ArrayBuffer {
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function fromBytes(buffer: ArrayBuffer | null | undefined): string | undefined {
  if (!buffer) return undefined;
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const descriptors = (list: unknown) =>
  ((list as { id: string; type?: string; transports?: string[] }[] | undefined) ?? []).map((c) => ({
    id: toBytes(c.id),
    type: 'public-key' as const,
    ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
  }));

/** navigator.credentials.create() with the server's creation options; the JSON the server takes. */
export async function createPasskey(options: Json): Promise<Json> {
  const user = options.user as { id: string; name: string; displayName: string };
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge as string),
    user: { ...user, id: toBytes(user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('No passkey was created', 'NotAllowedError');
  const response = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    rawId: fromBytes(credential.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: fromBytes(response.clientDataJSON),
      attestationObject: fromBytes(response.attestationObject),
      ...(typeof response.getTransports === 'function' ? { transports: response.getTransports() } : {}),
    },
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    clientExtensionResults: {},
  };
}

/** navigator.credentials.get() with the server's request options (optionally conditional, in the autofill). */
export async function getPasskey(options: Json, conditional?: AbortSignal): Promise<Json> {
  const publicKey = {
    ...options,
    challenge: toBytes(options.challenge as string),
    allowCredentials: descriptors(options.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
  const request = conditional ? ({ publicKey, mediation: 'conditional', signal: conditional } as CredentialRequestOptions) : { publicKey };
  const credential = (await navigator.credentials.get(request)) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('No passkey was chosen', 'NotAllowedError');
  const response = credential.response as AuthenticatorAssertionResponse;
  const userHandle = fromBytes(response.userHandle);
  return {
    id: credential.id,
    rawId: fromBytes(credential.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: fromBytes(response.clientDataJSON),
      authenticatorData: fromBytes(response.authenticatorData),
      signature: fromBytes(response.signature),
      ...(userHandle ? { userHandle } : {}),
    },
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    clientExtensionResults: {},
  };
}
