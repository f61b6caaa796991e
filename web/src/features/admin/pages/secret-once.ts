// Hands a just-created or regenerated secret from the action to the app's page,
// in memory only (never storage): a reload loses it, as "shown once" means.
const pending = new Map<string, string>();

export function rememberSecret(appId: string, secret: string): void {
  pending.set(appId, secret);
}

export function takeSecret(appId: string): string | undefined {
  const secret = pending.get(appId);
  pending.delete(appId);
  return secret;
}
