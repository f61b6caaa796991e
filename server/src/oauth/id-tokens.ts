// The id_token signing key (ES256). Generated on first start and kept in the
// `settings` table, so every instance signs with the same key; only the
// public half ever leaves this module (JWKS).
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { SettingsRepository } from '../site/settings-repository.js';

export const ID_TOKEN_KEY_SETTING = 'oauth_id_token_key';
export const ID_TOKEN_ALG = 'ES256';

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  nonce?: string;
  auth_time?: number;
}

export class IdTokenSigner {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {}

  /** Loads the key, creating it when absent; concurrent first starts agree on the row that won. */
  static async load(settings: SettingsRepository): Promise<IdTokenSigner> {
    let stored = await settings.get(ID_TOKEN_KEY_SETTING);
    if (stored === undefined) {
      const { privateKey } = await generateKeyPair(ID_TOKEN_ALG, { extractable: true });
      const jwk = await exportJWK(privateKey);
      jwk.kid = await calculateJwkThumbprint(jwk);
      await settings.insertIfAbsent(ID_TOKEN_KEY_SETTING, JSON.stringify(jwk));
      stored = await settings.get(ID_TOKEN_KEY_SETTING);
      if (stored === undefined) throw new Error('id_token signing key missing after creation');
    }
    const jwk = JSON.parse(stored) as JWK;
    const privateKey = (await importJWK(jwk, ID_TOKEN_ALG)) as CryptoKey;
    const { kty, crv, x, y, kid } = jwk;
    return new IdTokenSigner(privateKey, { kty, crv, x, y, kid, alg: ID_TOKEN_ALG, use: 'sig' });
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  sign(claims: IdTokenClaims, ttlSeconds: number, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: ID_TOKEN_ALG, kid: this.publicJwk.kid!, typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.privateKey);
  }
}
