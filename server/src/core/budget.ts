// How many long-lived connections (event streams, uploads and downloads in
// flight) one account or one token may hold on this instance at once. Each
// holds a socket, memory and a share of every per-connection timer; without a
// bound, one account opening thousands slows everyone (issue 32). A slot is
// taken synchronously before the first await of the request, so a burst of
// parallel requests cannot pass the limit together, and given back once when
// the connection ends.

/** One key a slot is counted under, and how many slots it may hold. */
export interface BudgetKey {
  key: string;
  limit: number;
}

export class Budget {
  private readonly held = new Map<string, number>();

  /** Slots held under `key` now (tests, metrics). */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /**
   * One slot under every key, or none when any of them is at its limit
   * (null). The answer gives the slot back; calling it again does nothing.
   */
  take(keys: readonly BudgetKey[]): (() => void) | null {
    for (const k of keys) if ((this.held.get(k.key) ?? 0) >= k.limit) return null;
    for (const k of keys) this.held.set(k.key, (this.held.get(k.key) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      for (const k of keys) {
        const n = (this.held.get(k.key) ?? 1) - 1;
        if (n <= 0) this.held.delete(k.key);
        else this.held.set(k.key, n);
      }
    };
  }
}
