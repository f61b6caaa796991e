// A bounded least-recently-used map whose memory grows with its entries.
// lru-cache allocates its arrays for `max` entries when it is made: the DPoP
// replay map alone (200,000 entries) held 5.6 MB of an idle server's 47 MB
// live heap, the user cache, the two throttles and the verified tokens
// another 2.8 MB, and with the old generation allowed to grow to twice its
// live size (ops/heap.ts) each of those bytes counts about twice toward the
// peak memory (issue 19). A Map keeps insertion order, so its first key is
// the least recently used one when every read and write moves its key to
// the end.
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
