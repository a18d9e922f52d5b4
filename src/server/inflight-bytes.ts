/**
 * The bytes a process holds for its callers: request bodies being read and answers not yet taken by
 * the client, in all (MAX_INFLIGHT_BYTES). Each is reserved before it is held and released when it
 * is done with, so that no pattern of requests, however many at once and however slowly read, holds
 * more (CONTRACT §7). One key may hold at most half, so that one caller cannot take it all.
 */
export class InflightBytes {
  private used = 0;
  private readonly byOwner = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get total(): number {
    return this.used;
  }

  /** Reserves `bytes` for `owner` (a key name), or says no when that would pass the limit or the owner's half. */
  reserve(owner: string, bytes: number): boolean {
    const owned = this.byOwner.get(owner) ?? 0;
    if (this.used + bytes > this.limit || owned + bytes > this.limit / 2) return false;
    this.used += bytes;
    this.byOwner.set(owner, owned + bytes);
    return true;
  }

  release(owner: string, bytes: number): void {
    this.used -= bytes;
    const owned = (this.byOwner.get(owner) ?? 0) - bytes;
    if (owned > 0) this.byOwner.set(owner, owned);
    else this.byOwner.delete(owner);
  }
}
