import { damaged } from '../errors.ts';

/**
 * ISO-BMFF (MP4/M4A) top-level boxes: each must fit in the file (a cut file, or a box declaring
 * more bytes than there are, is refused before the demuxer reads it), `ftyp` first, `moov` present.
 * Fragmented files (Safari's recordings) are an empty `moov` and `moof` + `mdat` pairs.
 */
export function checkMp4(data: Uint8Array): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  let moov = false;
  while (offset < data.length) {
    if (offset + 8 > data.length) throw damaged(`${data.length - offset} stray bytes after the last box`);
    let size = view.getUint32(offset, false);
    const type = String.fromCharCode(...data.subarray(offset + 4, offset + 8));
    if (offset === 0 && type !== 'ftyp') throw damaged('the file does not begin with its ftyp box');
    if (size === 1) {
      if (offset + 16 > data.length) throw damaged('a box header is cut');
      size = Number(view.getBigUint64(offset + 8, false));
    } else if (size === 0) {
      size = data.length - offset;
    }
    if (size < 8) throw damaged(`a box of ${size} bytes at byte ${offset}`);
    if (offset + size > data.length)
      throw damaged(`box ${JSON.stringify(type)} declares ${size} bytes, ${data.length - offset} are left`);
    if (type === 'moov') moov = true;
    offset += size;
  }
  if (!moov) throw damaged('no moov box: the file is cut or not finished');
}
