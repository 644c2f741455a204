import { modelFindingMessage } from '@alma/protocol';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TEST_MODELS } from '../../test-support/glb-models.ts';
import { blankPng, HOSTILE_MODELS, sparseBomb } from '../../test-support/hostile-glb.ts';
import { bytesSource } from './byte-source.ts';
import { readImageHeader } from './image-header.ts';
import { preflightGlb } from './preflight.ts';

const headerOf = (bytes: Uint8Array) =>
  readImageHeader(async (offset, n) => bytes.subarray(offset, offset + n), bytes.length);

describe('image sizes from headers, before any decode (AU-10)', () => {
  it.each([
    ['png', 300, 200],
    ['jpeg', 640, 480],
    ['webp', 123, 77],
  ] as const)('reads a real %s', async (format, width, height) => {
    const bytes = await sharp({ create: { width, height, channels: 3, background: '#a0522d' } })
      .withMetadata({ orientation: 1 }) // an EXIF segment before the JPEG frame header
      .toFormat(format)
      .toBuffer();
    expect(await headerOf(new Uint8Array(bytes))).toMatchObject({ type: `image/${format}`, width, height });
  });

  it('reads lossless WebP and a 16383² PNG without decoding it', async () => {
    const lossless = await sharp({ create: { width: 9, height: 1000, channels: 4, background: '#fff0' } })
      .webp({ lossless: true })
      .toBuffer();
    expect(await headerOf(new Uint8Array(lossless))).toMatchObject({ width: 9, height: 1000 });
    expect(await headerOf(blankPng(16383, 16383))).toMatchObject({ pixels: 16383 * 16383 });
  });

  it('answers null for what it cannot size', async () => {
    expect(await headerOf(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(await headerOf(blankPng(4, 4).subarray(0, 20))).toBeNull();
  });
});

describe('the checks before processing (AU-10)', () => {
  it.each(Object.keys(TEST_MODELS))('passes the real-world shape %s', async (name) => {
    const bytes = await TEST_MODELS[name as keyof typeof TEST_MODELS]();
    expect(await preflightGlb(bytesSource(bytes))).toMatchObject({ ok: true });
  });

  it.each(Object.entries(HOSTILE_MODELS))('refuses %s', async (_, { build, reason }) => {
    const result = await preflightGlb(bytesSource(build()));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.findings[0]?.reason).toBe(reason);
    for (const finding of result.findings) {
      expect(modelFindingMessage('es', finding)).not.toMatch(/undefined|NaN/);
      expect(modelFindingMessage('en', finding)).not.toMatch(/undefined|NaN/);
    }
  });

  it('says what the sparse bomb declares, in plain words', async () => {
    const bytes = sparseBomb();
    expect(bytes.length).toBeLessThan(600);
    const result = await preflightGlb(bytesSource(bytes));
    if (result.ok) throw new Error('accepted');
    expect(modelFindingMessage('es', result.findings[0] ?? { reason: 'json_invalid', params: {} })).toBe(
      'El accesor 0 declara 1.073.741.824 elementos sin datos que los respalden (máximo 4.000.000).',
    );
    expect(modelFindingMessage('en', result.findings[0] ?? { reason: 'json_invalid', params: {} })).toBe(
      'Accessor 0 declares 1,073,741,824 elements with no data behind them (maximum 4,000,000).',
    );
  });
});
