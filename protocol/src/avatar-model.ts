import { z } from 'zod';
import type { Language } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import { gltfIssueText, REEXPORT_HINT } from './gltf-issues.ts';

/**
 * What an uploaded .glb must fit before any work is spent on it (SPEC.md AU-10, AU-11): the
 * server reads the GLB's JSON and the headers of its images, and refuses at once — with the
 * reasons below, in the user's language — whatever would make the validator, the optimiser or
 * the browser do unbounded work, or what the client cannot load.
 */
export const AVATAR_MODEL_LIMITS = {
  /** The GLB's JSON chunk (scene description; the binary data is in the BIN chunk). */
  maxJsonBytes: 4 * 1024 * 1024,
  /** Vertices over every mesh primitive (POSITION counts), each primitive counted once. */
  maxVertices: 1_000_000,
  /** Components (count × VEC size) declared over every accessor: the work of reading them. */
  maxAccessorComponents: 64_000_000,
  maxNodes: 16_384,
  maxNodeDepth: 256,
  /** Pixels of one texture (4096 × 4096), read from its header before anything decodes it. */
  maxTexturePixels: 4096 * 4096,
  /** Pixels of all textures together (four 4096² textures, or sixteen 2048² ones). */
  maxTotalTexturePixels: 4 * 4096 * 4096,
} as const;

/**
 * glTF extensions a model may require: those the client's GLTFLoader loads (with its KTX2,
 * Draco and meshopt decoders) and the server's glTF-Transform reads and writes. Anything else in
 * `extensionsRequired` is refused; anything else merely used is dropped by processing and named
 * in the report.
 */
export const GLTF_EXTENSIONS_SUPPORTED = [
  'KHR_draco_mesh_compression',
  'KHR_lights_punctual',
  'KHR_materials_anisotropy',
  'KHR_materials_clearcoat',
  'KHR_materials_dispersion',
  'KHR_materials_emissive_strength',
  'KHR_materials_ior',
  'KHR_materials_iridescence',
  'KHR_materials_sheen',
  'KHR_materials_specular',
  'KHR_materials_transmission',
  'KHR_materials_unlit',
  'KHR_materials_volume',
  'KHR_mesh_quantization',
  'KHR_texture_basisu',
  'KHR_texture_transform',
  'EXT_mesh_gpu_instancing',
  'EXT_meshopt_compression',
  'EXT_texture_webp',
] as const;

/** Required extensions the client cannot load but processing turns into core glTF. */
export const GLTF_EXTENSIONS_CONVERTED = ['KHR_materials_pbrSpecularGlossiness'] as const;

/** Image formats whose size the server reads from the header, and the client decodes. */
export const AVATAR_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/ktx2'] as const;

/** Why a model is refused before processing, each with the facts its message names. */
export const MODEL_FINDING_REASONS = [
  'container_invalid',
  'json_invalid',
  'json_too_large',
  'external_reference',
  'data_out_of_bounds',
  'sparse_invalid',
  'accessor_too_large',
  'too_much_data',
  'too_many_vertices',
  'too_many_nodes',
  'hierarchy_too_deep',
  'node_cycle',
  'image_unreadable',
  'image_format_unsupported',
  'texture_too_large',
  'textures_too_large_total',
  'extension_unsupported',
  /** One validator issue code with its count and first place (SPEC.md AU-12). */
  'validator_error',
  /** How to re-export, after validator errors. */
  'reexport_hint',
] as const;
export type ModelFindingReason = (typeof MODEL_FINDING_REASONS)[number];

export const ModelFindingSchema = z.object({
  reason: z.enum(MODEL_FINDING_REASONS),
  /** Numbers and names the message shows (indices, counts, limits, extension names). */
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type ModelFinding = z.infer<typeof ModelFindingSchema>;

/** The error code a refusal answers with, by its first finding's reason (all 422). */
export const MODEL_FINDING_CODE: Record<ModelFindingReason, ErrorCode> = {
  container_invalid: 'avatar_model_invalid',
  json_invalid: 'avatar_model_invalid',
  json_too_large: 'avatar_too_complex',
  external_reference: 'avatar_model_invalid',
  data_out_of_bounds: 'avatar_model_invalid',
  sparse_invalid: 'avatar_model_invalid',
  accessor_too_large: 'avatar_too_complex',
  too_much_data: 'avatar_too_complex',
  too_many_vertices: 'avatar_too_complex',
  too_many_nodes: 'avatar_too_complex',
  hierarchy_too_deep: 'avatar_too_complex',
  node_cycle: 'avatar_model_invalid',
  image_unreadable: 'avatar_model_invalid',
  image_format_unsupported: 'avatar_extension_unsupported',
  texture_too_large: 'avatar_texture_too_large',
  textures_too_large_total: 'avatar_texture_too_large',
  extension_unsupported: 'avatar_extension_unsupported',
  validator_error: 'avatar_model_invalid',
  reexport_hint: 'avatar_model_invalid',
};

type Params = ModelFinding['params'];
const num = (language: Language, value: string | number | undefined) =>
  typeof value === 'number' ? value.toLocaleString(language === 'es' ? 'es-ES' : 'en-US') : (value ?? '');
const mb = (language: Language, bytes: string | number | undefined) =>
  `${num(language, Math.round((Number(bytes) / 1048576) * 10) / 10)} MB`;
const MAX = AVATAR_MODEL_LIMITS;
/** The glTF part a `data_out_of_bounds` finding names (its `what`). */
const PART: Record<Language, Record<string, string>> = {
  es: {
    accessor: 'El accesor',
    bufferView: 'La vista de búfer',
    buffer: 'El búfer',
    sparse: 'El bloque disperso del accesor',
  },
  en: {
    accessor: 'Accessor',
    bufferView: 'Buffer view',
    buffer: 'Buffer',
    sparse: 'The sparse block of accessor',
  },
};

const FINDING_TEXT: Record<Language, Record<ModelFindingReason, (p: Params, l: Language) => string>> = {
  es: {
    container_invalid: (p) => `La estructura del .glb está rota (${p.detail}).`,
    json_invalid: () => 'La descripción JSON del modelo no se puede leer.',
    json_too_large: (p, l) =>
      `La descripción JSON del modelo ocupa ${mb(l, p.bytes)}; el máximo es ${mb(l, MAX.maxJsonBytes)}.`,
    external_reference: (p) =>
      `${p.kind === 'image' ? 'La imagen' : 'El búfer'} ${p.index} apunta a un archivo externo; exporta un .glb con todo incluido.`,
    data_out_of_bounds: (p, l) =>
      `${PART.es[String(p.what)] ?? p.what} ${p.index} declara ${num(l, p.needed)} bytes, pero solo hay ${num(l, p.available)}.`,
    sparse_invalid: (p) => `El accesor ${p.index} tiene un bloque disperso (sparse) mal formado.`,
    accessor_too_large: (p, l) =>
      `El accesor ${p.index} declara ${num(l, p.count)} elementos sin datos que los respalden (máximo ${num(l, p.max)}).`,
    too_much_data: (p, l) =>
      `El modelo declara ${num(l, p.count)} valores de geometría; el máximo es ${num(l, MAX.maxAccessorComponents)}.`,
    too_many_vertices: (p, l) =>
      `El modelo tiene ${num(l, p.count)} vértices; el máximo es ${num(l, MAX.maxVertices)}.`,
    too_many_nodes: (p, l) =>
      `El modelo tiene ${num(l, p.count)} nodos; el máximo es ${num(l, MAX.maxNodes)}.`,
    hierarchy_too_deep: (p, l) =>
      `La jerarquía de nodos tiene más de ${num(l, p.depth)} niveles; el máximo es ${num(l, MAX.maxNodeDepth)}.`,
    node_cycle: (p) => `El nodo ${p.index} es su propio antecesor (la jerarquía forma un ciclo).`,
    image_unreadable: (p) => `No se pueden leer las dimensiones de la imagen ${p.index}.`,
    image_format_unsupported: (p) =>
      `La imagen ${p.index} es ${p.mimeType}; solo se admiten PNG, JPEG, WebP y KTX2.`,
    texture_too_large: (p, l) =>
      `La textura ${p.index} mide ${num(l, p.width)} × ${num(l, p.height)} píxeles; el máximo es 4096 × 4096.`,
    textures_too_large_total: (p, l) =>
      `Las texturas suman ${num(l, p.pixels)} píxeles; el máximo es ${num(l, MAX.maxTotalTexturePixels)} (cuatro de 4096 × 4096).`,
    extension_unsupported: (p) =>
      `El modelo requiere ${p.names}, que Alma no puede mostrar. Expórtalo sin esa extensión.`,
    validator_error: (p, l) =>
      `${gltfIssueText(l, String(p.code)) ?? p.message} (${p.code}): ${num(l, p.count)} ${p.count === 1 ? 'vez' : 'veces'}, la primera en ${p.pointer || 'el archivo'}.`,
    reexport_hint: () => REEXPORT_HINT.es,
  },
  en: {
    container_invalid: (p) => `The .glb structure is broken (${p.detail}).`,
    json_invalid: () => "The model's JSON description cannot be read.",
    json_too_large: (p, l) =>
      `The model's JSON description takes ${mb(l, p.bytes)}; the maximum is ${mb(l, MAX.maxJsonBytes)}.`,
    external_reference: (p) =>
      `${p.kind === 'image' ? 'Image' : 'Buffer'} ${p.index} points to an external file; export a .glb with everything embedded.`,
    data_out_of_bounds: (p, l) =>
      `${PART.en[String(p.what)] ?? p.what} ${p.index} declares ${num(l, p.needed)} bytes, but only ${num(l, p.available)} exist.`,
    sparse_invalid: (p) => `Accessor ${p.index} has a malformed sparse block.`,
    accessor_too_large: (p, l) =>
      `Accessor ${p.index} declares ${num(l, p.count)} elements with no data behind them (maximum ${num(l, p.max)}).`,
    too_much_data: (p, l) =>
      `The model declares ${num(l, p.count)} geometry values; the maximum is ${num(l, MAX.maxAccessorComponents)}.`,
    too_many_vertices: (p, l) =>
      `The model has ${num(l, p.count)} vertices; the maximum is ${num(l, MAX.maxVertices)}.`,
    too_many_nodes: (p, l) =>
      `The model has ${num(l, p.count)} nodes; the maximum is ${num(l, MAX.maxNodes)}.`,
    hierarchy_too_deep: (p, l) =>
      `The node hierarchy is more than ${num(l, p.depth)} levels deep; the maximum is ${num(l, MAX.maxNodeDepth)}.`,
    node_cycle: (p) => `Node ${p.index} is its own ancestor (the hierarchy has a cycle).`,
    image_unreadable: (p) => `The size of image ${p.index} cannot be read.`,
    image_format_unsupported: (p) =>
      `Image ${p.index} is ${p.mimeType}; only PNG, JPEG, WebP and KTX2 are supported.`,
    texture_too_large: (p, l) =>
      `Texture ${p.index} is ${num(l, p.width)} × ${num(l, p.height)} pixels; the maximum is 4096 × 4096.`,
    textures_too_large_total: (p, l) =>
      `The textures add up to ${num(l, p.pixels)} pixels; the maximum is ${num(l, MAX.maxTotalTexturePixels)} (four of 4096 × 4096).`,
    extension_unsupported: (p) =>
      `The model requires ${p.names}, which Alma cannot display. Export it without that extension.`,
    validator_error: (p, l) =>
      `${gltfIssueText(l, String(p.code)) ?? p.message} (${p.code}): ${num(l, p.count)} ${p.count === 1 ? 'time' : 'times'}, first at ${p.pointer || 'the file'}.`,
    reexport_hint: () => REEXPORT_HINT.en,
  },
};

/** A finding in plain words, in the user's language. */
export function modelFindingMessage(language: Language, finding: ModelFinding): string {
  return FINDING_TEXT[language][finding.reason](finding.params, language);
}
