// Passkeys (WebAuthn Level 3, api-contract §11), with @simplewebauthn/server.
// The relying party is the host of CIRRUS_BASE_URL and the only origin its
// origin. Each ceremony's challenge is stored for five minutes and consumed
// by one DELETE (single use across instances); a registration challenge is
// bound to the user who asked for it. The signature counter is kept
// (WebAuthn §6.1.1: a non-zero counter that does not move forward is refused).
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { badRequest, notFound } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { secretToken, timeOrderedId } from '../crypto/random.js';
import { sha256Hex } from '../crypto/compare.js';
import type { UserWithGroup } from '../db/schema.js';
import type { PasskeyRepository, PasskeyRow } from './passkey-repository.js';
import { rfc3339 } from './views.js';

/** @simplewebauthn/server and its ASN.1 stack are about 4 MB of heap: loaded with the first ceremony, not at start-up (issue 19's memory target). */
const webauthn = () => import('@simplewebauthn/server');

export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export function toPasskeyView(p: PasskeyRow): PasskeyView {
  return { id: p.id, name: p.name, created_at: rfc3339(p.created_at), last_used_at: p.last_used_at === null ? null : rfc3339(p.last_used_at) };
}

/** The relying party of a base URL: its host name (RP ID) and its origin. */
export function relyingParty(baseUrl: string): { id: string; origin: string } {
  const url = new URL(baseUrl);
  return { id: url.hostname, origin: url.origin };
}

const refused = (why: string) => badRequest(`The passkey was not accepted: ${why}`);

/** The challenge a response's clientDataJSON carries, or a 400 when it cannot be read. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string {
  const raw = response.response?.clientDataJSON;
  if (typeof raw !== 'string') throw refused('clientDataJSON is missing');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refused('clientDataJSON is not base64url-encoded JSON');
  }
  const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || challenge === '') throw refused('clientDataJSON has no challenge');
  return challenge;
}

export class Passkeys {
  private readonly rp: { id: string; origin: string };

  constructor(
    private readonly repo: PasskeyRepository,
    baseUrl: string,
    private readonly siteName: () => Promise<string>,
    private readonly clock: Clock,
    private readonly onAdded: (userId: string, name: string) => Promise<void>,
  ) {
    this.rp = relyingParty(baseUrl);
  }

  list(userId: string): Promise<PasskeyRow[]> {
    return this.repo.listByUser(userId);
  }

  /** Every passkey of the user stops signing in (credential-sweep.ts). */
  removeAll(userId: string): Promise<void> {
    return this.repo.deleteAllOf(userId);
  }

  /** Options for navigator.credentials.create(); the challenge is stored (hashed) for this user. */
  async registrationOptions(user: UserWithGroup): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.repo.listByUser(user.id);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: await this.siteName(),
      rpID: this.rp.id,
      userName: user.email,
      userDisplayName: user.nickname || user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.repo.insertChallenge({ id: sha256Hex(options.challenge), kind: 'register', challenge: options.challenge, user_id: user.id, expires_at: this.clock.now() + PASSKEY_CHALLENGE_TTL_MS });
    return options;
  }

  /** Verifies a registration response against the caller's own unexpired challenge, and stores the passkey. */
  async register(userId: string, response: RegistrationResponseJSON, nameInput: string): Promise<PasskeyRow> {
    const name = nameInput.trim();
    if (name === '') throw badRequest('The passkey needs a name');
    const challenge = challengeOf(response);
    const now = this.clock.now();
    const stored = await this.repo.takeChallenge(sha256Hex(challenge), 'register', userId, now);
    if (!stored) throw refused('its challenge is unknown, used, expired or was not issued to you; start again');
    let verified;
    try {
      verified = await (await webauthn()).verifyRegistrationResponse({
        response,
        expectedChallenge: stored.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch (err) {
      throw refused((err as Error).message);
    }
    if (!verified.verified || !verified.registrationInfo) throw refused('the response could not be verified');
    const { credential } = verified.registrationInfo;
    if (await this.repo.findByCredential(credential.id)) throw badRequest('This passkey is already registered');
    const row: PasskeyRow = {
      id: timeOrderedId(now),
      user_id: userId,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports?.length ? JSON.stringify(credential.transports) : null,
      name: name.slice(0, 64),
      created_at: now,
      last_used_at: null,
    };
    await this.repo.insert(row);
    await this.onAdded(userId, row.name);
    return row;
  }

  async rename(userId: string, id: string, nameInput: string): Promise<PasskeyRow> {
    const name = nameInput.trim();
    if (name === '') throw badRequest('The passkey needs a name');
    if (!(await this.repo.rename(id, userId, name.slice(0, 64)))) throw notFound('No such passkey');
    return (await this.repo.findOwned(id, userId))!;
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(id, userId))) throw notFound('No such passkey');
  }

  /** Options for navigator.credentials.get() with discoverable credentials, and the id to answer with. */
  async authenticationOptions(): Promise<{ id: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: this.rp.id, allowCredentials: [], userVerification: 'required' });
    const id = secretToken(24);
    await this.repo.insertChallenge({ id, kind: 'authenticate', challenge: options.challenge, user_id: null, expires_at: this.clock.now() + PASSKEY_CHALLENGE_TTL_MS });
    return { id, options };
  }

  /** Verifies a sign-in assertion (challenge consumed first); answers the passkey's user id. */
  async authenticate(challengeId: string, response: AuthenticationResponseJSON): Promise<string> {
    const now = this.clock.now();
    const stored = await this.repo.takeChallenge(challengeId, 'authenticate', null, now);
    if (!stored) throw refused('the sign-in challenge is unknown, used or expired; start again');
    const passkey = await this.repo.findByCredential(response.id);
    if (!passkey) throw refused('this passkey is not registered on this site');
    const userHandle = response.response.userHandle;
    if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.user_id) throw refused('the passkey belongs to another account');
    let verified;
    try {
      verified = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: stored.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: passkey.counter, transports: transportsOf(passkey) },
        requireUserVerification: true,
      });
    } catch (err) {
      throw refused((err as Error).message);
    }
    if (!verified.verified) throw refused('the response could not be verified');
    if (!(await this.repo.recordUse(passkey.id, passkey.counter, verified.authenticationInfo.newCounter, now))) {
      throw refused('the passkey was used by another sign-in at the same moment');
    }
    return passkey.user_id;
  }

  prune(): Promise<void> {
    return this.repo.pruneChallenges(this.clock.now());
  }
}

function transportsOf(p: PasskeyRow): AuthenticatorTransportFuture[] | undefined {
  if (!p.transports) return undefined;
  try {
    return JSON.parse(p.transports) as AuthenticatorTransportFuture[];
  } catch {
    return undefined;
  }
}
