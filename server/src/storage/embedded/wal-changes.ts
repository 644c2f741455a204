import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * Tells, without a query, whether anything may have been committed to a WAL-mode database since
 * the last look — by any connection: this process's, another instance's on the same file, a
 * write behind the repositories' back (issue 14: the session list's version read was ~20 µs of
 * `GET /chat/sessions`, two file locks and SQLite's read path, for an answer that rarely moves).
 *
 * Every commit rewrites the WAL-index header, the first 48 bytes of the `-shm` file every
 * connection maps (https://www.sqlite.org/walformat.html §2.1: a change counter `iChange`
 * incremented by each transaction, the WAL's last frame, its salts and checksums); checkpoints
 * that restart the WAL rewrite it too. `generation()` reads those bytes (one pread, no lock) and
 * returns a number that changes whenever they did since the call before. Equal generations around
 * a read mean nothing was committed in between — provided the generation was taken *before* the
 * read. A header read torn by a commit in progress only differs, which just means "read again".
 *
 * `null` when the database has no `-shm` file (`:memory:`): ask the database every time.
 */
export interface WalChanges {
  generation(): number;
  /**
   * Frames in the WAL not yet copied into the database (the header's `mxFrame` less the checkpoint
   * record's `nBackfill`, §2.1–2.2: both native-endian 32-bit words, at bytes 16 and 96): what a
   * checkpoint would copy now. 0 when the header cannot be read.
   */
  backlog(): number;
  close(): void;
}

const HEADER_BYTES = 48;
/** The header's `mxFrame`, and the checkpoint record's `nBackfill` after the header's two copies. */
const MX_FRAME = 16;
const N_BACKFILL = 96;
const native = endianness() === 'LE' ? 'readUInt32LE' : 'readUInt32BE';

export function watchWalChanges(file: string): WalChanges | null {
  if (file === ':memory:') return null;
  let fd: number | null;
  try {
    // The -shm file exists from the WAL's first use and stays while a connection is open.
    fd = openSync(`${file}-shm`, 'r');
  } catch {
    return null;
  }
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  const counts = Buffer.alloc(N_BACKFILL + 4);
  let generation = 0;
  return {
    backlog() {
      try {
        if (fd === null || readSync(fd, counts, 0, counts.length, 0) !== counts.length) return 0;
      } catch {
        return 0;
      }
      return Math.max(0, counts[native](MX_FRAME) - counts[native](N_BACKFILL));
    },
    generation() {
      try {
        if (fd === null || readSync(fd, now, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return ++generation;
      } catch {
        return ++generation;
      }
      if (!now.equals(seen)) {
        now.copy(seen);
        generation++;
      }
      return generation;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
