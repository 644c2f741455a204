/**
 * One PCM sample of a WAV-style interleaved buffer as a float in −1…1: unsigned 8-bit, signed
 * 16/24/32-bit little-endian integers, or 32-bit IEEE float.
 */
export function readPcmSample(view: DataView, at: number, bytesPerSample: number, isFloat: boolean): number {
  if (isFloat) return view.getFloat32(at, true);
  switch (bytesPerSample) {
    case 1:
      return (view.getUint8(at) - 128) / 128;
    case 2:
      return view.getInt16(at, true) / 32768;
    case 3:
      return (
        ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2 ** 31
      );
    default:
      return view.getInt32(at, true) / 2 ** 31;
  }
}
