/** The next wait of something retried ever more slowly while it keeps failing: twice the last, at least `floorMs`, at most `capMs`. */
export const backOff = (lastMs: number, floorMs: number, capMs: number): number => Math.min(Math.max(lastMs * 2, floorMs), capMs);
