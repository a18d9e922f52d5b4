/** Text of any length cut to `max` characters, marked with an ellipsis: names and pointers quoted in messages stay readable. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Text of any length cut to about `max` characters by leaving out its middle: both ends of a long pointer say where it is. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

/** A count with its noun: `1 repository`, `3 repositories`. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
