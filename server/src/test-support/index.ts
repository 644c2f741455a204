/**
 * Test doubles and generated fixtures for the other packages' tests and benches
 * (`@alma/server/test-support`). Kept out of the product entry (`@alma/server`), so nothing that
 * starts the server imports a fake.
 */
export { createFakeSynthesizer, type FakeSynthesizerOptions } from './speech.ts';
export { REAL_WORLD_VARIANTS, TEST_MODELS, buildRiggedModel, malformedGlb, notGlb } from './glb-models.ts';
export { decodeImage } from './raster-image.ts';
export { mp3Of, oggOpusOf, tone, wavOf } from './voice-samples.ts';
