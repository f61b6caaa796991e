// Pre-account hijacking (issue 32, finding 4): with sign-up open and
// activation off, anyone can register an address they do not own and add
// ways into the account (passkeys, WebDAV passwords, OAuth grants, two-step)
// before its owner ever shows up. When the address of an account that was
// not verified is proven (a reset link used), everything made before the
// proof is ended; features that hold such credentials register here, so
// accounts needs to know none of them. The same holders say what remains,
// for the reset-done mail.

/** One kind of credential a person can add to their account. */
export interface CredentialHolder {
  /** The key the reset-done mail words it by ('passkeys', 'webdav', 'apps', 'two_step'). */
  kind: string;
  /** Ends every credential of this kind the user has (made before now). */
  endAll(userId: string): Promise<void>;
  /** What the user still has, by name (for two-step: ['on'] or []). */
  names(userId: string): Promise<string[]>;
}

export class CredentialSweep {
  private readonly holders: CredentialHolder[] = [];

  register(holder: CredentialHolder): void {
    this.holders.push(holder);
  }

  async endAll(userId: string): Promise<void> {
    for (const h of this.holders) await h.endAll(userId);
  }

  /** kind -> names still there (every registered kind, empty when none). */
  async remaining(userId: string): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const h of this.holders) out[h.kind] = await h.names(userId);
    return out;
  }
}
