// DPoP (RFC 9449) for the token endpoint and for protected resources: a proof
// is verified (proof.ts), its nonce checked when the site requires server
// nonces (nonce.ts), and its jti claimed once (replay.ts). The token endpoint
// and the auth guard call this through two small hooks.
import { createHash } from 'node:crypto';
import { OAuthError } from '../../core/errors.js';
import { DpopRefusal, type ResourceProofCheck, type ResourceRequest } from '../../core/dpop.js';
import { nowSeconds, type Clock } from '../../core/clock.js';
import { accessTokenHash, IAT_WINDOW_S, ProofError, ProofVerifier, type VerifiedProof } from './proof.js';
import { normalizedHtu, requestHtu } from './htu.js';
import type { ReplayCache } from './replay.js';
import type { DpopNonces } from './nonce.js';

/** What a proof at the token endpoint established: the key the tokens are bound to. */
export interface TokenRequestProof {
  jkt: string;
}

/** The client-authenticated endpoints that take a DPoP proof. */
export type ProofEndpoint = 'token' | 'par';

type Refuse = (error: 'invalid_dpop_proof' | 'use_dpop_nonce', message: string, nonce?: string) => Error;

export class DpopService implements ResourceProofCheck {
  private readonly verifier = new ProofVerifier();
  /** The normalised URIs of the endpoints that take a proof with a POST (token, pushed authorization request). */
  private readonly htus: Readonly<Record<ProofEndpoint, string>>;

  constructor(
    private readonly baseUrl: string,
    paths: Readonly<Record<ProofEndpoint, string>>,
    private readonly replay: ReplayCache,
    private readonly clock: Clock,
    /** Set when every proof must carry a server nonce (CIRRUS_DPOP_NONCES). */
    private readonly nonces: DpopNonces | null,
  ) {
    const htu = (path: string) => {
      const uri = normalizedHtu(baseUrl + path);
      if (uri === null) throw new Error(`the base URL gives no URI for ${path}`);
      return uri;
    };
    this.htus = { token: htu(paths.token), par: htu(paths.par) };
  }

  /** The DPoP-Nonce to send with successful answers, when nonces are required (§8.2: the client keeps the latest). */
  nonceHeader(): string | undefined {
    return this.nonces?.current();
  }

  /**
   * §5: the proof of a token request, or null when none was sent; §10.1 the
   * same for a pushed authorization request (`endpoint` 'par'). Refusals
   * are the endpoint's own errors (invalid_dpop_proof, use_dpop_nonce).
   */
  async tokenRequest(header: string | string[] | undefined, endpoint: ProofEndpoint = 'token'): Promise<TokenRequestProof | null> {
    if (header === undefined) return null;
    const refuse: Refuse = (error, message, nonce) => new OAuthError(error, message, nonce === undefined ? {} : { dpopNonce: nonce });
    const proof = await this.check(header, { htm: 'POST', htu: this.htus[endpoint] }, refuse);
    return { jkt: proof.jkt };
  }

  /** §7.1: the proof of a request to a protected resource made with a token bound to `jkt`. */
  async checkResource(request: ResourceRequest): Promise<void> {
    const refuse: Refuse = (error, message, nonce) => new DpopRefusal(error, message, nonce);
    if (request.proof === undefined) throw new DpopRefusal('invalid_dpop_proof', 'a DPoP proof is required with a DPoP-bound token');
    const htu = requestHtu(this.baseUrl, request.url);
    if (htu === null) throw new DpopRefusal('invalid_dpop_proof', 'the request URI cannot be compared');
    const proof = await this.check(request.proof, { htm: request.method, htu, ath: accessTokenHash(request.token) }, refuse);
    // §7.1: the key that signed the proof must be the one the token is bound to.
    if (proof.jkt !== request.jkt) throw new DpopRefusal('invalid_token', 'the access token is bound to another key');
  }

  private async check(header: string | string[], expect: { htm: string; htu: string; ath?: string }, refuse: Refuse): Promise<VerifiedProof> {
    // §4.3 check 1: exactly one DPoP header field.
    if (typeof header !== 'string') throw refuse('invalid_dpop_proof', 'exactly one DPoP header is allowed');
    let proof: VerifiedProof;
    try {
      proof = await this.verifier.verify(header, { ...expect, nowS: nowSeconds(this.clock) });
    } catch (err) {
      if (err instanceof ProofError) throw refuse('invalid_dpop_proof', err.message);
      throw err;
    }
    // §8 / §9: a server nonce, when the site asks for them.
    if (this.nonces && !this.nonces.isFresh(proof.nonce)) {
      throw refuse('use_dpop_nonce', proof.nonce === undefined ? 'a server nonce is required in the DPoP proof' : 'the DPoP nonce is stale: use the one in DPoP-Nonce', this.nonces.current());
    }
    // §11.1: each proof once, for as long as its iat would let it through.
    const key = createHash('sha256').update(proof.jkt).update('\0').update(proof.jti).digest('base64url').slice(0, 27);
    if (!(await this.replay.firstUse(key, (proof.iat + IAT_WINDOW_S + 1) * 1000))) throw refuse('invalid_dpop_proof', 'the DPoP proof was already used (jti)');
    return proof;
  }
}
