/**
 * The field paths cel-go's cost estimate builds (`self`, `spec`, `@items` …) are Go slices, each
 * made by append() on the path of its operand: two appends to one path with room to spare write
 * the same element, and the first path then reads the second's member. The estimate the API server
 * makes depends on that (a size read after the overwrite is another member's), so the paths here
 * are Go slices too: a shared backing array, a length and a capacity that grows as Go grows it.
 */

export interface GoPath {
  backing: string[];
  length: number;
  capacity: number;
}

/** Go's append(path, step); `undefined` is a nil slice. */
export function append(path: GoPath | undefined, step: string): GoPath {
  if (path === undefined || path.capacity === 0) return { backing: [step], length: 1, capacity: 1 };
  if (path.length < path.capacity) {
    path.backing[path.length] = step;
    return { backing: path.backing, length: path.length + 1, capacity: path.capacity };
  }
  // growslice doubles a slice under 256 elements (16-byte string headers: each doubled size is a malloc size class); paths are far shorter.
  const capacity = Math.max(path.length + 1, 2 * path.capacity);
  return { backing: [...path.backing.slice(0, path.length), step], length: path.length + 1, capacity };
}

/** A new slice of one element, as `[]string{name}`. */
export const single = (step: string): GoPath => ({ backing: [step], length: 1, capacity: 1 });

/** What the slice holds now. */
export const read = (path: GoPath | undefined): string[] => (path === undefined ? [] : path.backing.slice(0, path.length));
