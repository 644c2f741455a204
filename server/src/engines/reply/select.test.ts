import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createReplyEngine } from './select.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'alma-select-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

/** The ConfigError's message, which server.ts prints before exiting. */
function startUpError(env: Record<string, string>): string {
  try {
    config(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('REPLY_ENGINE picks the engine', () => {
  it('builtin by default', () => {
    expect(createReplyEngine(config({})).name).toBe('builtin');
  });

  it('openai, named after its model, against any compatible server', () => {
    const c = config({
      REPLY_ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      OPENAI_MODEL: 'llama3.2',
    });
    expect(c.openai).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      model: 'llama3.2',
      timeoutMs: 30_000,
      maxRetries: 2,
    });
    expect(createReplyEngine(c).name).toBe('openai:llama3.2');
  });

  it('local, named after its model file', () => {
    const modelPath = join(dataDir, 'model.gguf');
    writeFileSync(modelPath, 'GGUF');
    const c = config({ REPLY_ENGINE: 'local', LLM_MODEL_PATH: modelPath, LLM_THREADS: '4' });
    expect(c.llm).toEqual({ modelPath, threads: 4, contextSize: 4096, maxTokens: 512 });
    // Nothing is loaded until the first reply.
    expect(createReplyEngine(c).name).toBe('local:model.gguf');
  });

  it('fills only the settings of the chosen engine', () => {
    expect(config({ OPENAI_MODEL: 'x' })).toMatchObject({ openai: null, llm: null });
  });
});

describe('start-up errors name what is missing', () => {
  it('openai needs a model, and a key for api.openai.com', () => {
    const message = startUpError({ REPLY_ENGINE: 'openai' });
    expect(message).toContain('OPENAI_MODEL');
    expect(message).toContain('OPENAI_API_KEY');
  });

  it('openai needs no key for another server', () => {
    const message = startUpError({ REPLY_ENGINE: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' });
    expect(message).toContain('OPENAI_MODEL');
    expect(message).not.toContain('OPENAI_API_KEY');
  });

  it('local needs LLM_MODEL_PATH, and the file must exist', () => {
    expect(startUpError({ REPLY_ENGINE: 'local' })).toContain('LLM_MODEL_PATH');
    expect(startUpError({ REPLY_ENGINE: 'local', LLM_MODEL_PATH: join(dataDir, 'nope.gguf') })).toMatch(
      /LLM_MODEL_PATH=".*nope\.gguf": no such file/,
    );
  });

  it('rejects an unknown engine and bad numbers', () => {
    expect(startUpError({ REPLY_ENGINE: 'gpt' })).toContain('REPLY_ENGINE="gpt"');
    expect(startUpError({ REPLY_ENGINE: 'builtin', LLM_THREADS: '0', OPENAI_TIMEOUT_MS: 'soon' })).toMatch(
      /LLM_THREADS="0"[\s\S]*OPENAI_TIMEOUT_MS="soon"|OPENAI_TIMEOUT_MS="soon"[\s\S]*LLM_THREADS="0"/,
    );
  });
});
