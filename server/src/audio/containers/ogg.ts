import { damaged, unsupported } from '../errors.ts';

/**
 * Ogg pages checked before the demuxer reads them (RFC 3533): demuxers skip what they cannot read
 * and say nothing, so a corrupt or cut file would otherwise decode to less audio than it claims.
 * Every page must be whole, carry a correct CRC-32 and belong to the one logical stream, in
 * sequence (no page missing), with granule positions that never go back; the first page begins
 * the stream and the last one ends it.
 */
const HEADER = 27;
const BOS = 0x02;
const EOS = 0x04;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let crc = n << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    table[n] = crc >>> 0;
  }
  return table;
})();

/** The page's CRC-32 (polynomial 0x04C11DB7, no reflection, its own checksum field taken as 0). */
export function oggPageCrc(page: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    const byte = i >= 22 && i < 26 ? 0 : (page[i] ?? 0);
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  }
  return crc;
}

export interface OggPage {
  offset: number;
  length: number;
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
}

/** The pages of a whole, valid Ogg stream; throws `invalid_audio` with the first fault found. */
export function checkOgg(data: Uint8Array): OggPage[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const pages: OggPage[] = [];
  let offset = 0;
  let granule = -1n;
  while (offset < data.length) {
    const n = pages.length;
    if (offset + HEADER > data.length) throw damaged(`${data.length - offset} stray bytes after page ${n}`);
    if (view.getUint32(offset, false) !== 0x4f676753) throw damaged(`no Ogg page at byte ${offset}`);
    if (data[offset + 4] !== 0) throw damaged(`page ${n}: Ogg version ${data[offset + 4]}`);
    const segments = data[offset + 26] ?? 0;
    const tableEnd = offset + HEADER + segments;
    if (tableEnd > data.length) throw damaged(`page ${n} is cut in its header`);
    let body = 0;
    for (let i = offset + HEADER; i < tableEnd; i++) body += data[i] ?? 0;
    const end = tableEnd + body;
    if (end > data.length) throw damaged(`page ${n} is cut: it needs ${end - data.length} more bytes`);
    const page: OggPage = {
      offset,
      length: end - offset,
      flags: data[offset + 5] ?? 0,
      granule: view.getBigInt64(offset + 6, true),
      serial: view.getUint32(offset + 14, true),
      sequence: view.getUint32(offset + 18, true),
    };
    if (oggPageCrc(data.subarray(offset, end)) !== view.getUint32(offset + 22, true))
      throw damaged(`page ${n} fails its CRC check`);
    const first = pages[0];
    if (!first) {
      if (!(page.flags & BOS)) throw damaged('the first page does not begin a stream');
    } else {
      if (page.serial !== first.serial) throw unsupported('more than one Ogg stream');
      if ((pages.at(-1)?.flags ?? 0) & EOS) throw damaged(`page ${n} after the end of the stream`);
      if (page.flags & BOS) throw damaged(`page ${n} begins a second stream`);
    }
    if (page.sequence !== (first?.sequence ?? page.sequence) + n)
      throw damaged(`page ${n} is numbered ${page.sequence}: pages are missing`);
    if (page.granule !== -1n) {
      if (page.granule < granule) throw damaged(`page ${n} goes back in time`);
      granule = page.granule;
    }
    pages.push(page);
    offset = end;
  }
  const last = pages.at(-1);
  if (!last) throw damaged('no Ogg page');
  if (!(last.flags & EOS)) throw damaged('the stream does not end (no end-of-stream page): the file is cut');
  return pages;
}
