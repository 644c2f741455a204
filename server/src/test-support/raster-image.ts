import sharp from 'sharp';

/** An encoded image (PNG, WebP, JPEG) decoded to RGBA rows, for tests that read pixels. */
export async function decodeImage(
  bytes: Uint8Array,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}
