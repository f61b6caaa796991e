// DPoP keys held by a test, to make proofs (RFC 9449 §4.2) with any claim or
// header wrong on purpose; oauth4webapi and openid-client only make right ones.
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';

export const b64 = (value: Buffer | string) => Buffer.from(value).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A DPoP key held by the test, to make proofs with any claim or header wrong on purpose. */
export class HandKey {
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
  constructor(readonly alg: 'ES256' | 'EdDSA' = 'ES256') {
    const pair = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
    this.privateKey = pair.privateKey;
    this.jwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  }

  get thumbprint(): string {
    const j = this.jwk;
    return sha256(j.kty === 'EC' ? `{"crv":"${j.crv}","kty":"EC","x":"${j.x}","y":"${j.y}"}` : `{"crv":"${j.crv}","kty":"OKP","x":"${j.x}"}`);
  }

  proof(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
    const h = b64(JSON.stringify({ typ: 'dpop+jwt', alg: this.alg, jwk: this.jwk, ...header }));
    const p = b64(JSON.stringify({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims }));
    const input = Buffer.from(`${h}.${p}`);
    const signature = this.alg === 'ES256' ? sign('sha256', input, { key: this.privateKey, dsaEncoding: 'ieee-p1363' }) : sign(null, input, this.privateKey);
    return `${h}.${p}.${b64(signature)}`;
  }
}
