import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries derived from the protocol's zod schemas, shared by the REST and socket
 * fuzzers. `validFor` walks a schema and generates values that mostly pass it (so the handlers
 * behind validation get exercised too); `mutatedFor` breaks one thing in such a value; `hostile`
 * is everything a caller should never send. A new route or event gets all three for free.
 */

interface LooseCheck {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

interface LooseDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: { _zod: { def: LooseCheck } }[];
}

/** zod 4 keeps each schema's definition under `_zod.def`; only the fields read here are typed. */
export function defOf(schema: z.ZodType): LooseDef {
  return (schema as unknown as { _zod: { def: LooseDef } })._zod.def;
}

const isOptional = (schema: z.ZodType): boolean => {
  const type = defOf(schema).type;
  return type === 'optional' || type === 'default' || type === 'prefault';
};

/** Values that reach deeper code when a field's schema accepts them: real ids, tokens, texts. */
export interface Pool {
  strings: readonly string[];
  /** Values for fields of a given name (sessionId, replyId, refreshToken…), strongly preferred. */
  byField?: Readonly<Record<string, readonly string[]>>;
}

function stringArbitrary(
  schema: z.ZodType,
  def: LooseDef,
  pool: Pool,
  field: string | undefined,
): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = 300;
  const patterns: RegExp[] = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length' && c.minimum !== undefined) minLength = Math.max(minLength, c.minimum);
    if (c.check === 'max_length' && c.maximum !== undefined) maxLength = Math.min(maxLength, c.maximum);
    if (c.check === 'string_format' && c.format === 'regex' && c.pattern) patterns.push(c.pattern);
  }
  const fits = (value: string) => schema.safeParse(value).success;
  const fromPool = pool.strings.filter(fits);
  const candidates: fc.Arbitrary<string>[] = [
    fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }),
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) }),
  ];
  const anchored = patterns.find((p) => p.source.startsWith('^'));
  if (anchored) candidates.push(fc.stringMatching(anchored, { size: 'small' }));
  if (fromPool.length > 0) candidates.push(fc.constantFrom(...fromPool), fc.constantFrom(...fromPool));
  const forField = (field === undefined ? [] : (pool.byField?.[field] ?? [])).filter(fits);
  if (forField.length > 0) for (let i = 0; i < 6; i++) candidates.push(fc.constantFrom(...forField));
  // Several independent patterns (password complexity) rarely meet by chance: fall back to a
  // pool value that passes, so "valid" stays mostly valid.
  return fc
    .oneof(...candidates)
    .map((value) =>
      fits(value) || fromPool.length === 0 ? value : (fromPool[value.length % fromPool.length] ?? value),
    );
}

function numberArbitrary(def: LooseDef): fc.Arbitrary<number> {
  let min = -1e6;
  let max = 1e6;
  let integer = false;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'number_format' && (c.format === 'safeint' || c.format?.startsWith('int')))
      integer = true;
    if (c.check === 'greater_than' && c.value !== undefined)
      min = c.inclusive ? c.value : c.value + (integer ? 1 : 1e-9);
    if (c.check === 'less_than' && c.value !== undefined)
      max = c.inclusive ? c.value : c.value - (integer ? 1 : 1e-9);
  }
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function repair(
  schema: z.ZodType,
  value: Record<string, unknown>,
  required: readonly string[],
): Record<string, unknown> {
  const result = schema.safeParse(value);
  if (result.success) return value;
  const copy = { ...value };
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key !== 'string') continue;
    // A confirmation (registration's confirmPassword) must repeat its field.
    const confirmed = /^confirm([A-Z]\w*)$/.exec(key)?.[1];
    const original = confirmed ? `${confirmed[0]?.toLowerCase()}${confirmed.slice(1)}` : undefined;
    if (original !== undefined && original in copy) copy[key] = copy[original];
    else if (!required.includes(key)) delete copy[key];
  }
  return copy;
}

/** Values shaped by the schema: mostly valid, sometimes at or just past a boundary. */
export function validFor(schema: z.ZodType, pool: Pool, depth = 0, field?: string): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 8) return fc.constant(null);
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, fieldSchema] of Object.entries(shape)) {
        model[key] = validFor(fieldSchema, pool, depth + 1, key);
        if (!isOptional(fieldSchema)) required.push(key);
      }
      // Cross-field rules (confirmPassword, plan) are not derivable from the shape: repeat a
      // confirmed field, drop an optional field the whole schema refuses, so "valid" stays
      // mostly valid.
      return fc.record(model, { requiredKeys: required }).map((value) => repair(schema, value, required));
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? validFor(def.innerType, pool, depth + 1, field) : fc.anything();
    case 'nullable':
      return def.innerType
        ? fc.option(validFor(def.innerType, pool, depth + 1, field), { nil: null, freq: 8 })
        : fc.constant(null);
    case 'pipe':
      return def.in ? validFor(def.in, pool, depth + 1, field) : fc.anything();
    case 'string':
      return stringArbitrary(schema, def, pool, field);
    case 'number':
    case 'int':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'array':
      return def.element
        ? fc.array(validFor(def.element, pool, depth + 1), { maxLength: 4 })
        : fc.array(fc.anything());
    case 'union':
      return def.options && def.options.length > 0
        ? fc.oneof(...def.options.map((o) => validFor(o, pool, depth + 1)))
        : fc.anything();
    case 'custom':
      // The protocol's only custom schema is binary (voice audio).
      return fc.oneof(
        fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
        fc.anything(),
      );
    default:
      return fc.anything();
  }
}

const HUGE_SIZES = [4_097, 65_536, 300_000] as const;

/** Strings and values nobody should send: control characters, lone surrogates, huge, deep. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0000\u0001\u001f',
    '\ud800',
    '\udfff\ud800',
    '\u202e\u202d',
    '\ufeff',
    '🧨💥🦄',
    'e\u0301\u0301\u0301',
    '../../etc/passwd',
    '%00',
    '%zz',
    '${7*7}',
    "' OR 1=1 --",
    '"; DROP TABLE messages; --',
    '<script>alert(1)</script>',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1e309',
    'constructor',
    '__proto__',
    'prototype',
    'hasOwnProperty',
    'toString',
  ),
  fc
    .tuple(fc.constantFrom(...HUGE_SIZES), fc.constantFrom('a', 'ñ', '😀', ' ', '\u0000'))
    .map(([n, ch]) => ch.repeat(n)),
);

const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 50, max: 1500 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
    return value;
  });

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with own enumerable `__proto__` / `constructor` keys: JSON.stringify keeps them. */
export function withPoisonKeys(
  base: Record<string, unknown>,
  key: (typeof PROTO_KEYS)[number],
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  const payload =
    key === 'constructor'
      ? { prototype: { polluted: 'yes', isAdmin: true } }
      : { polluted: 'yes', role: 'admin' };
  Object.defineProperty(copy, key, { value: payload, enumerable: true, configurable: true, writable: true });
  return copy;
}

export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.anything({ maxDepth: 4, withNullPrototype: true, withObjectString: true }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: nastyString },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      0,
      -0,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      true,
      false,
      [],
      {},
      [null],
      [[[]]],
    ),
  },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS).map((k) => withPoisonKeys({}, k)) },
  { weight: 1, arbitrary: fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 50 }) },
);

type Mutation =
  | { op: 'drop'; index: number }
  | { op: 'set'; index: number; value: unknown }
  | { op: 'extra'; key: string; value: unknown }
  | { op: 'poison'; key: (typeof PROTO_KEYS)[number] }
  | { op: 'replace'; value: unknown }
  | { op: 'wrap' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), index: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), index: fc.nat(), value: hostile }),
  fc.record({ op: fc.constant('set' as const), index: fc.nat(), value: hostile }),
  fc.record({
    op: fc.constant('extra' as const),
    key: fc.oneof(fc.string(), fc.constantFrom(...PROTO_KEYS)),
    value: hostile,
  }),
  fc.record({ op: fc.constant('poison' as const), key: fc.constantFrom(...PROTO_KEYS) }),
  fc.record({ op: fc.constant('replace' as const), value: hostile }),
  fc.constant({ op: 'wrap' as const }),
);

function applyMutation(value: unknown, m: Mutation): unknown {
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
  const base = isRecord ? { ...(value as Record<string, unknown>) } : {};
  const keys = Object.keys(base);
  switch (m.op) {
    case 'drop': {
      const key = keys[m.index % Math.max(1, keys.length)];
      if (key !== undefined) delete base[key];
      return base;
    }
    case 'set': {
      const key = keys[m.index % Math.max(1, keys.length)] ?? 'x';
      base[key] = m.value;
      return base;
    }
    case 'extra':
      Object.defineProperty(base, m.key, {
        value: m.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return base;
    case 'poison':
      return withPoisonKeys(base, m.key);
    case 'replace':
      return m.value;
    case 'wrap':
      return [value];
  }
}

/** A mostly valid value with one thing broken: a field dropped, retyped, added or poisoned. */
export function mutatedFor(schema: z.ZodType, pool: Pool): fc.Arbitrary<unknown> {
  return fc.tuple(validFor(schema, pool), mutation).map(([value, m]) => applyMutation(value, m));
}

/** JSON.stringify that never throws (BigInt, cycles) and never returns undefined. */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return typeof value === 'bigint' ? `${value}n` : '<unserialisable>';
  }
}

/** True if a value holds binary data anywhere (it is not a plain JSON value then). */
export function containsBinary(value: unknown, depth = 0): boolean {
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return true;
  if (depth > 50 || typeof value !== 'object' || value === null) return false;
  return Object.values(value as Record<string, unknown>).some((v) => containsBinary(v, depth + 1));
}

/** Printable ASCII, for header values (fetch refuses anything else). */
export const headerSafeString: fc.Arbitrary<string> = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 120,
});

/** Runs tasks with at most `limit` in flight; keeps going when one fails. */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The seed for this run: FUZZ_SEED to replay one, otherwise fresh (and printed). */
export function fuzzSeed(): number {
  const given = Number(process.env.FUZZ_SEED);
  return Number.isInteger(given) && process.env.FUZZ_SEED ? given : Date.now() % 2 ** 31;
}
