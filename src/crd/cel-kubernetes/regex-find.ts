/**
 * Go's regexp FindString and FindAllString (leftmost-first, as Perl and Go choose), run as Go's
 * pike machine over the program @bufbuild/re2 compiles: its own matcher only says whether a string
 * matches, never where. Linear in the input, as Go's is. Positions are UTF-16 indices stepped a
 * code point at a time, where Go steps a rune of UTF-8; the substrings are the same.
 */
/** The parts of @bufbuild/re2's compiled program (Go's syntax.Prog) the machine reads. */
interface Inst {
  op: number;
  out: number;
  arg: number;
  matchRune(rune: number): boolean;
}
export interface Prog {
  start: number;
  getInst(pc: number): Inst;
}

// syntax.InstOp values as @bufbuild/re2 numbers them (Inst.ALT …), and the EMPTY_* flags of Utils.
const [ALT, ALT_MATCH, CAPTURE, EMPTY_WIDTH, FAIL, MATCH, NOP] = [1, 2, 3, 4, 5, 6, 7];
const [BEGIN_LINE, END_LINE, BEGIN_TEXT, END_TEXT, WORD_BOUNDARY, NO_WORD_BOUNDARY] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20];

const isWordRune = (r: number) => (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39) || r === 0x5f;

/** syntax.EmptyOpContext: the zero-width assertions that hold between runes r1 and r2 (-1: the text's edge). */
function context(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= BEGIN_TEXT | BEGIN_LINE;
  if (r1 === 0x0a) op |= BEGIN_LINE;
  if (r2 < 0) op |= END_TEXT | END_LINE;
  if (r2 === 0x0a) op |= END_LINE;
  op |= isWordRune(r1) !== isWordRune(r2) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return op;
}

const runeAt = (text: string, at: number): number => (at < text.length ? text.codePointAt(at)! : -1);
const width = (rune: number): number => (rune < 0 ? 0 : rune > 0xffff ? 2 : 1);
const runeBefore = (text: string, at: number): number =>
  at === 0 ? -1 : runeAt(text, at >= 2 && text.codePointAt(at - 2)! > 0xffff ? at - 2 : at - 1);

/** A thread: an instruction and where its match started. Queues keep priority order and one thread an instruction. */
type Queue = Map<number, number>;

function add(prog: Prog, queue: Queue, pc: number, start: number, flags: number): void {
  if (queue.has(pc)) return;
  const inst = prog.getInst(pc);
  switch (inst.op) {
    case FAIL:
      return;
    case ALT:
    case ALT_MATCH:
      queue.set(pc, -1); // visited, not a thread
      add(prog, queue, inst.out, start, flags);
      add(prog, queue, inst.arg, start, flags);
      return;
    case EMPTY_WIDTH:
      queue.set(pc, -1);
      if ((inst.arg & ~flags) === 0) add(prog, queue, inst.out, start, flags);
      return;
    case NOP:
    case CAPTURE:
      queue.set(pc, -1);
      add(prog, queue, inst.out, start, flags);
      return;
    default:
      queue.set(pc, start);
  }
}

/** The leftmost-first match at or after `from`: [start, end), or undefined. */
function match(prog: Prog, text: string, from: number): [number, number] | undefined {
  let found: [number, number] | undefined;
  let run: Queue = new Map();
  let at = from;
  let rune = runeAt(text, at);
  let flags = context(runeBefore(text, at), rune);
  for (;;) {
    if (run.size === 0 && found !== undefined) break;
    if (found === undefined) add(prog, run, prog.start, at, flags);
    const next: Queue = new Map();
    const after = runeAt(text, at + width(rune));
    flags = context(rune, after);
    for (const [pc, start] of run) {
      if (start < 0) continue;
      const inst = prog.getInst(pc);
      if (inst.op === MATCH) {
        // Leftmost-first: this thread outranks every one after it.
        found = [start, at];
        break;
      }
      if (rune >= 0 && inst.matchRune(rune)) add(prog, next, inst.out, start, flags);
    }
    if (rune < 0) break;
    at += width(rune);
    rune = after;
    run = next;
  }
  return found;
}

/** Regexp.FindString: the leftmost match, or "" when there is none. */
export function findString(prog: Prog, text: string): string {
  const found = match(prog, text, 0);
  return found === undefined ? '' : text.slice(...found);
}

/** Regexp.FindAllString: up to `n` matches (all when n < 0), none empty right after the one before. */
export function findAllString(prog: Prog, text: string, n: number): string[] {
  const limit = n < 0 ? text.length + 1 : n;
  const matches: string[] = [];
  let previousEnd = -1;
  for (let at = 0; matches.length < limit && at <= text.length;) {
    const found = match(prog, text, at);
    if (found === undefined) break;
    const [start, end] = found;
    let accept = true;
    if (end === at) {
      // An empty match: none right after the previous match; the search moves on a rune.
      if (start === previousEnd) accept = false;
      at += Math.max(width(runeAt(text, at)), at < text.length ? 0 : 1);
    } else at = end;
    previousEnd = end;
    if (accept) matches.push(text.slice(start, end));
  }
  return matches;
}
