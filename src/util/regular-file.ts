/**
 * Reading a file the server is told to read (a key file, a bundle) within bounds. A FIFO,
 * a device or a socket in its place must not stop the process: reading a FIFO waits for a writer,
 * and the event loop with it, /healthz included; /dev/zero never ends. A huge file must not run the
 * heap out. So the file is opened with O_NONBLOCK (opening a FIFO then returns at once), checked to
 * be a regular file of at most `maxBytes` by fstat of what was opened (not of the name, which may
 * change in between), and read to at most `maxBytes + 1` bytes (a file growing meanwhile is caught).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** Why a file was not read: `reason` completes "FILE: …", e.g. `cannot be read (ENOENT)`. */
export class FileReadError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'FileReadError';
  }
}

// O_NONBLOCK: a FIFO opens without a writer; fstat then refuses it before any read can wait.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** What is wrong with the opened file by its fstat, or undefined when it may be read. */
function refusal(stats: Stats, maxBytes: number): string | undefined {
  // The code a read of a folder gives, as before: `cannot be read (EISDIR)`.
  if (stats.isDirectory()) return 'cannot be read (EISDIR)';
  if (!stats.isFile()) return `is ${kindOf(stats)}, not a regular file, so it is not read`;
  if (stats.size > maxBytes) return `is ${stats.size} bytes, more than the ${maxBytes} bytes allowed, so it is not read`;
  return undefined;
}

// Read into a buffer one byte longer than fstat said: filling it means the file grew meanwhile.
const grew = 'grew while it was read; it is read again on the next reload';
const unreadable = (error: unknown) => `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;

/** The bytes of the regular file `file`, at most `maxBytes`, read without blocking the event loop; a FileReadError says why not. */
export async function readRegularFile(file: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw new FileReadError(file, unreadable(error));
  }
  try {
    const stats = await handle.stat();
    const reason = refusal(stats, maxBytes);
    if (reason !== undefined) throw new FileReadError(file, reason);
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = (await handle.read(buffer, length, buffer.length - length, null)).bytesRead;
    if (length > stats.size) throw new FileReadError(file, grew);
    return buffer.subarray(0, length);
  } catch (error) {
    throw error instanceof FileReadError ? error : new FileReadError(file, unreadable(error));
  } finally {
    await handle.close();
  }
}

/** readRegularFile for what is read before serving, or in one piece with work as synchronous (a bundles folder on reload). */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw new FileReadError(file, unreadable(error));
  }
  try {
    const stats = fstatSync(fd);
    const reason = refusal(stats, maxBytes);
    if (reason !== undefined) throw new FileReadError(file, reason);
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > stats.size) throw new FileReadError(file, grew);
    return buffer.subarray(0, length);
  } catch (error) {
    throw error instanceof FileReadError ? error : new FileReadError(file, unreadable(error));
  } finally {
    closeSync(fd);
  }
}
