// "These owners' feeds grew": raised by a FileStore after a transaction that
// recorded events has committed (files/repository.ts), heard by the feed's hub.
// It exists so the file service does not need the hub, which is built later
// (it needs Redis and the token verifier).
export class ChangeSignal {
  private readonly listeners: ((owners: ReadonlySet<string>) => void)[] = [];

  on(listener: (owners: ReadonlySet<string>) => void): void {
    this.listeners.push(listener);
  }

  emit(owners: ReadonlySet<string>): void {
    for (const l of this.listeners) l(owners);
  }
}
