// What the auth guard and WebDAV need to know about DPoP (RFC 9449) without
// importing the OAuth feature: how a token says it is bound (cnf.jkt), the
// refusal a proof check throws, and the interface of that check.

/** The proof algorithms accepted (RFC 9449 §4.2; `Ed25519` is the fully-specified name of EdDSA over Ed25519). */
export const DPOP_ALGS = ['ES256', 'EdDSA', 'Ed25519'] as const;

/** RFC 9449 §7.1: the `algs` parameter of a DPoP challenge. */
export const DPOP_ALGS_PARAM = DPOP_ALGS.join(' ');

export type DpopErrorCode = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/** A DPoP-protected request refused; `nonce` is sent as DPoP-Nonce (RFC 9449 §8, §9). */
export class DpopRefusal extends Error {
  constructor(
    readonly error: DpopErrorCode,
    message: string,
    readonly nonce?: string,
  ) {
    super(message);
    this.name = 'DpopRefusal';
  }
}

/** The `WWW-Authenticate` challenge of a refusal (RFC 9449 §7.1). */
export function dpopChallenge(refusal: DpopRefusal): string {
  const description = refusal.message.replace(/["\\]/g, '');
  return `DPoP error="${refusal.error}", error_description="${description}", algs="${DPOP_ALGS_PARAM}"`;
}

/** The key thumbprint a token is bound to (`cnf.jkt`, RFC 9449 §6.1), or null for an unbound token. */
export function boundKey(claims: Record<string, unknown>): string | null {
  const cnf = claims.cnf;
  if (cnf === undefined) return null;
  const jkt = cnf !== null && typeof cnf === 'object' ? (cnf as { jkt?: unknown }).jkt : undefined;
  // A cnf we cannot read binds the token to nothing anyone can prove: never usable.
  return typeof jkt === 'string' && jkt.length > 0 ? jkt : '\0unreadable';
}

export interface ResourceRequest {
  /** The request's method and its path with any query (Fastify's request.url). */
  method: string;
  url: string;
  /** The DPoP header(s) as received. */
  proof: string | string[] | undefined;
  /** The access token the proof must hash (`ath`). */
  token: string;
  /** The token's cnf.jkt. */
  jkt: string;
}

/** Checks the proof of a request made with a DPoP-bound token (RFC 9449 §7); rejects with DpopRefusal. */
export interface ResourceProofCheck {
  checkResource(request: ResourceRequest): Promise<void>;
}
