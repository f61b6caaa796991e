// Verifies one DPoP proof JWT (RFC 9449 §4.3): its form, header, key,
// signature and claims. Replay (jti) and nonces are the service's
// (service.ts), since they need state; this module needs none.
import { createHash, verify, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import { DPOP_ALGS } from '../../core/dpop.js';
import { keyObject, publicJwk, thumbprint } from './thumbprint.js';
import { normalizedHtu } from './htu.js';

/** RFC 9449 §11.1 leaves the window to the server: proofs dated more than this from now are refused. */
export const IAT_WINDOW_S = 60;
const MAX_PROOF_LENGTH = 8192;
const MAX_JTI_LENGTH = 256;

export interface ProofExpectation {
  htm: string;
  /** Already normalised (htu.ts). */
  htu: string;
  /** base64url SHA-256 of the access token (resource requests, §4.3 check 11); undefined at the token endpoint. */
  ath?: string;
  nowS: number;
}

export interface VerifiedProof {
  jkt: string;
  jti: string;
  iat: number;
  nonce: string | undefined;
}

/** Why a proof is not accepted (the description goes to the client: it names the check, nothing secret). */
export class ProofError extends Error {}

const fail = (message: string): never => {
  throw new ProofError(message);
};

function decodeSegment(part: string, name: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) fail(`${name}: not base64url`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    fail(`${name}: not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${name}: not a JSON object`);
  return value as Record<string, unknown>;
}

/** The access token hash of §4.2 (`ath`). */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The signature check runs on libuv's thread pool (crypto.verify with a
 * callback), like the id_token signature (id-tokens.ts): the P-256
 * verification is most of a proof's cost, and the event loop goes on
 * serving other requests meanwhile.
 */
const verifyOffLoop = promisify(verify) as (algorithm: string | null, data: Buffer, key: KeyObject | { key: KeyObject; dsaEncoding: 'ieee-p1363' }, signature: Buffer) => Promise<boolean>;

/** A proof header that passed §4.3 checks 4–6, with what it yields. */
interface CheckedHeader {
  alg: string;
  jkt: string;
  key: KeyObject;
}

/** Headers longer than this (a key with padding, extra members) are checked every time rather than remembered. */
const MAX_REMEMBERED_HEADER = 1024;

export class ProofVerifier {
  /**
   * Checked headers by their base64url text: a client signs every proof with
   * the same key, so every proof it sends has the same header segment, and
   * its JSON, key checks, thumbprint and key import are done once. Only a
   * header that passed every check is remembered, and the text is the whole
   * input of those checks.
   */
  private readonly headers = new LRUCache<string, CheckedHeader>({ max: 10_000 });

  private checkHeader(headerPart: string): CheckedHeader {
    const remembered = this.headers.get(headerPart);
    if (remembered) return remembered;
    const header = decodeSegment(headerPart, 'header');
    // §4.3 checks 4–6: the type, an asymmetric algorithm we support (never none or HS*), a public key.
    if (header.typ !== 'dpop+jwt') fail('typ: must be dpop+jwt');
    const alg = header.alg;
    if (typeof alg !== 'string' || !(DPOP_ALGS as readonly string[]).includes(alg)) fail(`alg: must be one of ${DPOP_ALGS.join(', ')}`);
    if (header.crit !== undefined) fail('crit: no critical header parameter is understood');
    const jwk = publicJwk(header.jwk, alg as string);
    if (typeof jwk === 'string') return fail(jwk);
    let key: KeyObject;
    try {
      key = keyObject(jwk);
    } catch {
      return fail('jwk: not a valid public key');
    }
    const checked = { alg: alg as string, jkt: thumbprint(jwk), key };
    if (headerPart.length <= MAX_REMEMBERED_HEADER) this.headers.set(headerPart, checked);
    return checked;
  }

  async verify(proof: string, expect: ProofExpectation): Promise<VerifiedProof> {
    if (proof.length > MAX_PROOF_LENGTH) fail('the proof is too long');
    const parts = proof.split('.');
    if (parts.length !== 3 || parts.some((p) => p.length === 0)) fail('the proof is not a compact JWS');
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const { alg, jkt, key } = this.checkHeader(headerPart);

    // §4.3 check 7: the signature, by the key in the header (checked last, below).
    const signature = Buffer.from(signaturePart, 'base64url');
    if (signature.toString('base64url') !== signaturePart || signature.length !== 64) fail('the signature is malformed');
    // §4.3 checks 8–12, the claims, first: they cost nothing next to the signature.
    const claims = decodeSegment(payloadPart, 'payload');
    const { jti, htm, htu, iat, ath, nonce } = claims;
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) fail('jti: required');
    if (htm !== expect.htm) fail('htm: does not match the request method');
    // A client sends the URI as the server names it: an identical one needs no normalising.
    if (typeof htu !== 'string' || (htu !== expect.htu && normalizedHtu(htu) !== expect.htu)) fail('htu: does not match the request URI');
    if (typeof iat !== 'number' || !Number.isFinite(iat)) fail('iat: required');
    if (Math.abs((iat as number) - expect.nowS) > IAT_WINDOW_S) fail(`iat: outside the accepted window of ${IAT_WINDOW_S} s`);
    if (expect.ath !== undefined && ath !== expect.ath) fail('ath: does not match the access token');
    if (nonce !== undefined && typeof nonce !== 'string') fail('nonce: must be a string');

    const input = Buffer.from(`${headerPart}.${payloadPart}`);
    const good = alg === 'ES256' ? await verifyOffLoop('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature) : await verifyOffLoop(null, input, key, signature);
    if (!good) fail('the signature does not verify with the jwk');
    return { jkt, jti: jti as string, iat: iat as number, nonce: nonce as string | undefined };
  }
}
