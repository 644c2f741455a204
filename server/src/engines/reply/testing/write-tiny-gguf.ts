import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Writes a tiny llama-architecture GGUF with random weights, so the local reply engine can be
 * tested on the real node-llama-cpp runtime without model weights (none can be downloaded here).
 * It loads in milliseconds and streams tokens — gibberish drawn from a small vocabulary.
 *
 * Layout (GGUF v3, little-endian): header, metadata key/values, tensor infos, padding to the
 * alignment, then the F32 tensor data, each tensor starting on an aligned offset.
 *
 *   npx tsx server/src/engines/reply/testing/write-tiny-gguf.ts /tmp/tiny.gguf
 */
export interface TinyGgufOptions {
  embedding?: number;
  layers?: number;
  heads?: number;
  feedForward?: number;
  contextLength?: number;
  /** Seeds the weights, so the same options give the same file. */
  seed?: number;
}

const ALIGNMENT = 32;

// GGUF metadata value types and tensor types (ggml.h / gguf.h).
const GGUF_TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
const GGML_TYPE_F32 = 0;

// SentencePiece token types (llama.cpp's llama_token_type).
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

/** Whole words (SentencePiece marks a leading space with ▁), so the gibberish has some words. */
const WORDS = [
  'hello', 'hola', 'I', 'am', 'you', 'are', 'happy', 'glad', 'sad', 'the', 'a', 'and', 'to', 'of',
  'feliz', 'que', 'de', 'la', 'el', 'y', 'great', 'good', 'wonderful', 'today', 'friend', 'amigo',
]; // prettier-ignore

type Value =
  | { type: 'uint32' | 'int32' | 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; value: string[] }
  | { type: 'array'; of: 'int32' | 'float32'; value: number[] };

interface Tensor {
  name: string;
  /** ggml order: the first dimension is the innermost (a row's length). */
  dims: number[];
}

class Writer {
  private chunks: Buffer[] = [];
  length = 0;

  private push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  bytes(buffer: Buffer): void {
    this.push(buffer);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.push(Buffer.alloc(pad));
  }
  value(v: Value): void {
    if (v.type === 'array') {
      this.u32(GGUF_TYPE.array);
      this.u32(GGUF_TYPE[v.of]);
      this.u64(v.value.length);
      for (const item of v.value) {
        if (typeof item === 'string') this.string(item);
        else if (v.of === 'int32') this.i32(item);
        else this.f32(item);
      }
      return;
    }
    this.u32(GGUF_TYPE[v.type]);
    switch (v.type) {
      case 'uint32':
        return this.u32(v.value);
      case 'int32':
        return this.i32(v.value);
      case 'float32':
        return this.f32(v.value);
      case 'bool':
        return this.bytes(Buffer.from([v.value ? 1 : 0]));
      case 'string':
        return this.string(v.value);
    }
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** mulberry32: a small seeded generator, so the weights (and the test) are reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_TYPE.unknown, TOKEN_TYPE.control, TOKEN_TYPE.control];
  // Byte fallback: any text can be tokenized, whatever the vocabulary lacks.
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_TYPE.byte);
  }
  const pieces = ['▁', ...'abcdefghijklmnopqrstuvwxyz.,!?', ...WORDS.map((word) => `▁${word}`)];
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(TOKEN_TYPE.normal);
  }
  // Longer pieces score higher, as in a trained SentencePiece model.
  const scores = tokens.map((token, id) => (types[id] === TOKEN_TYPE.normal ? -100 + token.length : 0));
  return { tokens, scores, types };
}

/** The GGUF file's bytes. */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const embedding = options.embedding ?? 32;
  const layers = options.layers ?? 2;
  const heads = options.heads ?? 4;
  const feedForward = options.feedForward ?? 64;
  const contextLength = options.contextLength ?? 4096;
  const next = random(options.seed ?? 42);
  const vocab = vocabulary();

  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'alma-tiny-test' }],
    ['general.alignment', { type: 'uint32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'uint32', value: contextLength }],
    ['llama.embedding_length', { type: 'uint32', value: embedding }],
    ['llama.block_count', { type: 'uint32', value: layers }],
    ['llama.feed_forward_length', { type: 'uint32', value: feedForward }],
    ['llama.attention.head_count', { type: 'uint32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: heads }],
    ['llama.rope.dimension_count', { type: 'uint32', value: embedding / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'uint32', value: vocab.tokens.length }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'float32', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'int32', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'uint32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
  ];

  const tensors: Tensor[] = [
    { name: 'token_embd.weight', dims: [embedding, vocab.tokens.length] },
    { name: 'output_norm.weight', dims: [embedding] },
    { name: 'output.weight', dims: [embedding, vocab.tokens.length] },
  ];
  for (let layer = 0; layer < layers; layer++) {
    const blk = (name: string, dims: number[]) => tensors.push({ name: `blk.${layer}.${name}.weight`, dims });
    blk('attn_norm', [embedding]);
    blk('attn_q', [embedding, embedding]);
    blk('attn_k', [embedding, embedding]);
    blk('attn_v', [embedding, embedding]);
    blk('attn_output', [embedding, embedding]);
    blk('ffn_norm', [embedding]);
    blk('ffn_gate', [embedding, feedForward]);
    blk('ffn_up', [embedding, feedForward]);
    blk('ffn_down', [feedForward, embedding]);
  }

  const w = new Writer();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.value(value);
  }
  let offset = 0;
  const data: Buffer[] = [];
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((product, dim) => product * dim, 1);
    w.string(tensor.name);
    w.u32(tensor.dims.length);
    for (const dim of tensor.dims) w.u64(dim);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    const values = new Float32Array(count);
    // Norm weights at 1 keep activations in range; the rest small and random.
    const isNorm = tensor.dims.length === 1;
    for (let i = 0; i < count; i++) values[i] = isNorm ? 1 : (next() * 2 - 1) * 0.5;
    const bytes = Buffer.from(values.buffer);
    const padded = Buffer.alloc(Math.ceil(bytes.length / ALIGNMENT) * ALIGNMENT);
    bytes.copy(padded);
    data.push(padded);
    offset += padded.length;
  }
  w.padTo(ALIGNMENT);
  for (const buffer of data) w.bytes(buffer);
  return w.toBuffer();
}

export function writeTinyGguf(path: string, options?: TinyGgufOptions): string {
  const file = resolve(path);
  writeFileSync(file, tinyGguf(options));
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const target = process.argv[2] ?? 'tiny.gguf';
  console.info(`wrote ${writeTinyGguf(target)}`);
}
