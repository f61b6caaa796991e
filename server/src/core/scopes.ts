// What a scope requirement means (api-contract §5): a `.Write` grant
// satisfies the matching `.Read` requirement; first-party tokens (no scope
// list) are unscoped. The auth guard and the OAuth feature share this rule.

/** Whether `granted` satisfies `required`. */
export function scopeSatisfied(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  if (required.endsWith('.Read')) return granted.includes(`${required.slice(0, -'.Read'.length)}.Write`);
  return false;
}

export function missingScopes(granted: readonly string[] | null, required: readonly string[]): string[] {
  if (granted === null) return [];
  return required.filter((r) => !scopeSatisfied(granted, r));
}
