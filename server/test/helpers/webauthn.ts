// A software WebAuthn authenticator for API tests: ES256, "none" attestation,
// discoverable, user verified. It makes the JSON a browser's
// PublicKeyCredential.toJSON() gives, so the server's checks (challenge,
// origin, RP ID, signature, counter) run on real signatures. The browser test
// uses Chromium's virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (b: Uint8Array | Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | Buffer | string) => createHash('sha256').update(b).digest();

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly key: KeyObject;
  private readonly cose: Uint8Array;
  counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
    /** The user handle (the account's id) a discoverable credential returns. */
    private userHandle = '',
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authData(attested: boolean, counter: number): Buffer {
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0); // UP, UV, AT
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    const parts = [sha256(this.rpId), Buffer.from([flags]), c];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), len, this.credentialId, Buffer.from(this.cose));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return b64(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create() for these options (challenge, user id). */
  create(options: { challenge: string; user?: { id: string } }, overrides: { origin?: string } = {}) {
    if (options.user) this.userHandle = Buffer.from(options.user.id, 'base64url').toString('utf8');
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', this.authData(true, this.counter)]]) as never);
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: this.clientData('webauthn.create', options.challenge, overrides.origin ?? this.origin), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** The answer to navigator.credentials.get(); the counter moves on unless one is given. */
  get(options: { challenge: string }, overrides: { origin?: string; counter?: number } = {}) {
    const counter = overrides.counter ?? ++this.counter;
    const authData = this.authData(false, counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), this.key);
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64(authData), signature: b64(signature), userHandle: b64(this.userHandle) },
      clientExtensionResults: {},
    };
  }
}
