/**
 * Image dimensions from the first bytes of PNG, JPEG, WebP and KTX2 files, read before anything
 * decodes them (a 1 MB PNG can declare 16383 × 16383 pixels, 1 GB once decoded). The format is
 * told by the magic bytes, never by the declared MIME type.
 */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/ktx2';

export interface ImageHeader {
  type: ImageType;
  width: number;
  height: number;
  /** Pixels of the base level, layers, faces and depth slices included (KTX2). */
  pixels: number;
}

/** Reads `length` bytes at `offset` within the image (fewer past its end). */
export type ImageReader = (offset: number, length: number) => Promise<Uint8Array>;

const KTX2_MAGIC = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG start-of-frame markers (every SOFn but DHT C4, JPG C8 and DAC CC). */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** Segments a JPEG may hold before its frame header; more is not an image we want to scan. */
const JPEG_MAX_SEGMENTS = 4096;

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The image's type and size, or null when the bytes are none of the four formats or are cut short. */
export async function readImageHeader(read: ImageReader, length: number): Promise<ImageHeader | null> {
  const head = await read(0, 64);
  if (startsWith(head, PNG_MAGIC)) {
    if (head.length < 24 || ascii(head, 12, 4) !== 'IHDR') return null;
    return sized('image/png', view(head).getUint32(16), view(head).getUint32(20));
  }
  if (head[0] === 0xff && head[1] === 0xd8) return jpegSize(read, length);
  if (head.length >= 30 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP')
    return webpSize(head);
  if (startsWith(head, KTX2_MAGIC)) {
    if (head.length < 40) return null;
    const v = view(head);
    const [width, height, depth, layers, faces] = [20, 24, 28, 32, 36].map((at) => v.getUint32(at, true));
    const base = sized('image/ktx2', width ?? 0, Math.max(1, height ?? 0));
    if (!base) return null;
    base.pixels *= Math.max(1, depth ?? 0) * Math.max(1, layers ?? 0) * Math.max(1, faces ?? 0);
    return base;
  }
  return null;
}

function sized(type: ImageType, width: number, height: number): ImageHeader | null {
  if (!(width > 0 && height > 0)) return null;
  return { type, width, height, pixels: width * height };
}

function webpSize(head: Uint8Array): ImageHeader | null {
  const chunk = ascii(head, 12, 4);
  const v = view(head);
  if (chunk === 'VP8 ')
    // Lossy: the frame header after the 3-byte tag and the start code 9d 01 2a.
    return sized('image/webp', v.getUint16(26, true) & 0x3fff, v.getUint16(28, true) & 0x3fff);
  if (chunk === 'VP8L') {
    if (head[20] !== 0x2f) return null;
    const bits = v.getUint32(21, true);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => (head[at] ?? 0) | ((head[at + 1] ?? 0) << 8) | ((head[at + 2] ?? 0) << 16);
    return sized('image/webp', u24(24) + 1, u24(27) + 1);
  }
  return null;
}

/** Walks the JPEG's segments by their lengths up to the first frame header. */
async function jpegSize(read: ImageReader, length: number): Promise<ImageHeader | null> {
  let at = 2;
  for (let i = 0; i < JPEG_MAX_SEGMENTS && at + 4 <= length; i++) {
    const marker = await read(at, 10);
    if (marker[0] !== 0xff) return null;
    const type = marker[1] ?? 0;
    if (type === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (type === 0xd8 || type === 0x01 || (type >= 0xd0 && type <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (type === 0xd9 || type === 0xda) return null; // end of image or scan before any frame
    if (marker.length < 4) return null;
    const segment = view(marker).getUint16(2);
    if (JPEG_SOF.has(type)) {
      if (marker.length < 9) return null;
      return sized('image/jpeg', view(marker).getUint16(7), view(marker).getUint16(5));
    }
    if (segment < 2) return null;
    at += 2 + segment;
  }
  return null;
}
