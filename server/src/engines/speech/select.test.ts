import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createSpeechSynthesizer } from './select.ts';

const env = (extra: Record<string, string>) => ({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'alma-speech-')),
  JWT_SECRET: 'x'.repeat(32),
  ...extra,
});

describe('SPEECH_ENGINE', () => {
  it('defaults to the builtin espeak synthesizer', () => {
    expect(createSpeechSynthesizer(loadConfig(env({})))?.name).toBe('builtin');
  });

  it('none: no synthesizer, replies are text only', () => {
    expect(createSpeechSynthesizer(loadConfig(env({ SPEECH_ENGINE: 'none' })))).toBeNull();
  });

  it('openai: an OpenAI-compatible server, named by its model', () => {
    const config = loadConfig(
      env({
        SPEECH_ENGINE: 'openai',
        SPEECH_OPENAI_BASE_URL: 'http://localhost:8880/v1',
        SPEECH_OPENAI_MODEL: 'kokoro',
      }),
    );
    expect(config.speechOpenai).toMatchObject({
      baseUrl: 'http://localhost:8880/v1',
      voice: 'alloy',
      responseFormat: 'wav',
    });
    expect(createSpeechSynthesizer(config)?.name).toBe('openai:kokoro');
  });

  it('openai at api.openai.com needs a key; a bad engine name stops start-up', () => {
    expect(() => loadConfig(env({ SPEECH_ENGINE: 'openai' }))).toThrow(ConfigError);
    expect(() => loadConfig(env({ SPEECH_ENGINE: 'piper' }))).toThrow(/SPEECH_ENGINE/);
  });
});
