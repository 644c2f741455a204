import { damaged } from '../errors.ts';

/**
 * WebM (EBML) elements checked before the demuxer reads them: the EBML header, then one Segment
 * whose level-1 elements and cluster children are all known and all fit. A recorder writes the
 * Segment and its Clusters with an unknown size (Chrome's MediaRecorder does); a Cluster then ends
 * where the next level-1 element begins. Anything else — bytes after the last element, an element
 * cut short, one declaring more bytes than there are, an id that has no place there — is refused
 * here: mediabunny resynchronises over such bytes, and on some it loops forever (bytes after an
 * unknown-size Segment).
 */
const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const VOID = 0xec;
// SeekHead, Info, Tracks, Cluster, Cues, Chapters, Tags, Attachments, Void.
const LEVEL_1 = new Set([
  0x114d9b74,
  0x1549a966,
  0x1654ae6b,
  CLUSTER,
  0x1c53bb6b,
  0x1043a770,
  0x1254c367,
  0x1941a469,
  VOID,
]);
// Timestamp, SimpleBlock, BlockGroup, Position, PrevSize, Void, CRC-32, SilentTracks, EncryptedBlock.
const CLUSTER_CHILDREN = new Set([0xe7, 0xa3, 0xa0, 0xa7, 0xab, VOID, 0xbf, 0x5854, 0xaf]);

interface Element {
  id: number;
  /** null: unknown size (all value bits set). */
  size: number | null;
  dataStart: number;
}

const hex = (id: number) => `0x${id.toString(16).toUpperCase()}`;

/** The length of a variable-size integer from its first byte (1–8), or 0 when invalid. */
function vintLength(first: number): number {
  for (let length = 1; length <= 8; length++) if (first & (0x100 >> length)) return length;
  return 0;
}

function readElement(data: Uint8Array, at: number, limit: number): Element {
  const idLength = vintLength(data[at] ?? 0);
  if (idLength === 0 || idLength > 4) throw damaged(`no EBML element at byte ${at}`);
  if (at + idLength >= limit) throw damaged(`the element at byte ${at} is cut`);
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + (data[at + i] ?? 0);
  const sizeAt = at + idLength;
  const sizeLength = vintLength(data[sizeAt] ?? 0);
  if (sizeLength === 0) throw damaged(`element ${hex(id)} at byte ${at} has no valid size`);
  if (sizeAt + sizeLength > limit) throw damaged(`element ${hex(id)} at byte ${at} is cut`);
  let size = (data[sizeAt] ?? 0) & (0xff >> sizeLength);
  let unknown = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const byte = data[sizeAt + i] ?? 0;
    size = size * 256 + byte;
    unknown &&= byte === 0xff;
  }
  return { id, size: unknown ? null : size, dataStart: sizeAt + sizeLength };
}

/** The end of an element of known size, which must lie within `limit`. */
function endOf(element: Element, at: number, limit: number): number {
  const end = element.dataStart + (element.size ?? 0);
  if (end > limit)
    throw damaged(
      `element ${hex(element.id)} at byte ${at} declares ${end - at} bytes, ${limit - at} are left`,
    );
  return end;
}

/** Walks a Cluster's children from `at`; an unknown-size Cluster ends at the next level-1 element. */
function walkCluster(data: Uint8Array, at: number, limit: number, open: boolean): number {
  let pos = at;
  while (pos < limit) {
    const child = readElement(data, pos, limit);
    if (open && LEVEL_1.has(child.id)) return pos;
    if (!CLUSTER_CHILDREN.has(child.id)) throw damaged(`element ${hex(child.id)} has no place in a cluster`);
    if (child.size === null) throw damaged(`element ${hex(child.id)} at byte ${pos} has no size`);
    pos = endOf(child, pos, limit);
  }
  return pos;
}

export function checkWebm(data: Uint8Array): void {
  const header = readElement(data, 0, data.length);
  if (header.id !== EBML || header.size === null) throw damaged('no EBML header');
  const segmentAt = endOf(header, 0, data.length);
  if (segmentAt >= data.length) throw damaged('an EBML header and no segment');
  const segment = readElement(data, segmentAt, data.length);
  if (segment.id !== SEGMENT) throw damaged(`element ${hex(segment.id)} where the segment should be`);
  const segmentEnd = segment.size === null ? data.length : endOf(segment, segmentAt, data.length);
  if (segmentEnd < data.length) throw damaged(`${data.length - segmentEnd} bytes after the segment`);
  let pos = segment.dataStart;
  while (pos < segmentEnd) {
    const element = readElement(data, pos, segmentEnd);
    if (!LEVEL_1.has(element.id))
      throw damaged(`element ${hex(element.id)} at byte ${pos} has no place there`);
    if (element.size === null) {
      if (element.id !== CLUSTER) throw damaged(`element ${hex(element.id)} at byte ${pos} has no size`);
      pos = walkCluster(data, element.dataStart, segmentEnd, true);
    } else {
      const end = endOf(element, pos, segmentEnd);
      if (element.id === CLUSTER) walkCluster(data, element.dataStart, end, false);
      pos = end;
    }
  }
}
