import type { Language } from './constants.ts';

/**
 * The Khronos glTF validator's issue codes in plain words (SPEC.md AU-12): what the report lists
 * as repaired and what a refusal names, for a person who exported a model rather than wrote one.
 * Codes are grouped by what went wrong; a code not listed falls back to the validator's message.
 */

type Group =
  | 'weights'
  | 'joints_duplicate'
  | 'unit_vectors'
  | 'tangent_sign'
  | 'rotations'
  | 'morph_weights'
  | 'skin_without_joints'
  | 'layout'
  | 'bounds'
  | 'extensions'
  | 'animations'
  | 'indices'
  | 'joints'
  | 'invalid_numbers'
  | 'bind_matrices'
  | 'vertex_counts'
  | 'hierarchy'
  | 'images'
  | 'truncated'
  | 'references'
  | 'skeleton'
  | 'json';

const GROUP_OF: Record<string, Group> = {
  ACCESSOR_WEIGHTS_NON_NORMALIZED: 'weights',
  ACCESSOR_WEIGHTS_NEGATIVE: 'weights',
  ACCESSOR_JOINTS_INDEX_DUPLICATE: 'joints_duplicate',
  ACCESSOR_VECTOR3_NON_UNIT: 'unit_vectors',
  ACCESSOR_INVALID_SIGN: 'tangent_sign',
  ROTATION_NON_UNIT: 'rotations',
  MESH_INVALID_WEIGHTS_COUNT: 'morph_weights',
  NODE_WEIGHTS_INVALID: 'morph_weights',
  NODE_SKIN_WITH_NON_SKINNED_MESH: 'skin_without_joints',
  ACCESSOR_MATRIX_ALIGNMENT: 'layout',
  ACCESSOR_OFFSET_ALIGNMENT: 'layout',
  ACCESSOR_TOTAL_OFFSET_ALIGNMENT: 'layout',
  BUFFER_VIEW_INVALID_BYTE_STRIDE: 'layout',
  IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE: 'layout',
  MESH_PRIMITIVE_ACCESSOR_UNALIGNED: 'layout',
  MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE: 'layout',
  MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE: 'layout',
  SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE: 'layout',
  BUFFER_VIEW_TARGET_OVERRIDE: 'layout',
  ACCESSOR_USAGE_OVERRIDE: 'layout',
  GLB_CHUNK_LENGTH_UNALIGNED: 'layout',
  BUFFER_DATA_URI_MIME_TYPE_INVALID: 'layout',
  MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS: 'bounds',
  ACCESSOR_MIN_MISMATCH: 'bounds',
  ACCESSOR_MAX_MISMATCH: 'bounds',
  ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND: 'bounds',
  ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND: 'bounds',
  UNUSED_EXTENSION_REQUIRED: 'extensions',
  NON_REQUIRED_EXTENSION: 'extensions',
  UNDECLARED_EXTENSION: 'extensions',
  ACCESSOR_INDEX_OOB: 'indices',
  ACCESSOR_INDEX_PRIMITIVE_RESTART: 'indices',
  ACCESSOR_JOINTS_INDEX_OOB: 'joints',
  ACCESSOR_INVALID_FLOAT: 'invalid_numbers',
  ACCESSOR_INVALID_IBM: 'bind_matrices',
  INVALID_IBM_ACCESSOR_COUNT: 'bind_matrices',
  MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT: 'vertex_counts',
  MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT: 'vertex_counts',
  NODE_LOOP: 'hierarchy',
  NODE_PARENT_OVERRIDE: 'hierarchy',
  SCENE_NON_ROOT_NODE: 'hierarchy',
  IMAGE_DATA_INVALID: 'images',
  IMAGE_MIME_TYPE_INVALID: 'images',
  IMAGE_UNEXPECTED_EOS: 'images',
  TEXTURE_INVALID_IMAGE_MIME_TYPE: 'images',
  BUFFER_BYTE_LENGTH_MISMATCH: 'truncated',
  ACCESSOR_TOO_LONG: 'truncated',
  BUFFER_VIEW_TOO_LONG: 'truncated',
  BUFFER_MISSING_GLB_DATA: 'truncated',
  GLB_UNEXPECTED_END_OF_CHUNK_DATA: 'truncated',
  UNRESOLVED_REFERENCE: 'references',
  SKIN_NO_COMMON_ROOT: 'skeleton',
  SKIN_SKELETON_INVALID: 'skeleton',
  NODE_SKIN_NO_SCENE: 'skeleton',
  INVALID_JSON: 'json',
  TYPE_MISMATCH: 'json',
  UNDEFINED_PROPERTY: 'json',
  VALUE_NOT_IN_RANGE: 'json',
  INVALID_INDEX: 'json',
};

const TEXT: Record<Language, Record<Group, string>> = {
  es: {
    weights: 'Pesos de piel que no suman 1',
    joints_duplicate: 'Vértices unidos dos veces al mismo hueso',
    unit_vectors: 'Normales o tangentes que no miden 1',
    tangent_sign: 'Tangentes con la orientación mal indicada',
    rotations: 'Rotaciones de nodos sin normalizar',
    morph_weights: 'Pesos de morphs que no coinciden con sus morph targets',
    skin_without_joints: 'Una piel (skin) sobre una malla sin datos de huesos',
    layout: 'Datos binarios dispuestos contra las reglas de glTF (byteStride, alineación)',
    bounds: 'Cajas de límites (min/max) ausentes o erróneas',
    extensions: 'Extensiones declaradas sin coincidir con su uso',
    animations: 'Errores en animaciones incluidas',
    indices: 'Triángulos que apuntan a vértices que no existen',
    joints: 'Vértices unidos a huesos que la piel no tiene',
    invalid_numbers: 'Números no válidos (NaN o infinito) en la geometría',
    bind_matrices: 'Matrices de unión (inverse bind) no válidas en la piel',
    vertex_counts: 'Atributos de una misma malla con distinto número de vértices',
    hierarchy: 'Una jerarquía de nodos en bucle o con nodos de dos padres',
    images: 'Una imagen dañada o que no es del formato que declara',
    truncated: 'Datos que pasan del final del archivo',
    references: 'Referencias a partes que no existen',
    skeleton: 'Un esqueleto cuyos huesos no comparten una raíz',
    json: 'La descripción del modelo (JSON) no sigue el formato glTF',
  },
  en: {
    weights: "Skin weights that don't add up to 1",
    joints_duplicate: 'Vertices bound twice to the same bone',
    unit_vectors: 'Normals or tangents that are not unit length',
    tangent_sign: 'Tangents with an invalid handedness',
    rotations: 'Node rotations that are not normalised',
    morph_weights: "Morph weights that don't match their morph targets",
    skin_without_joints: 'A skin on a mesh without bone data',
    layout: 'Binary data laid out against the glTF rules (byte stride, alignment)',
    bounds: 'Missing or wrong bounding boxes (min/max)',
    extensions: "Extensions declared in a way that doesn't match their use",
    animations: 'Errors in embedded animations',
    indices: "Triangles that point to vertices that don't exist",
    joints: "Vertices bound to bones the skin doesn't have",
    invalid_numbers: 'Invalid numbers (NaN or infinity) in the geometry',
    bind_matrices: 'Invalid inverse bind matrices in the skin',
    vertex_counts: 'Attributes of one mesh with different vertex counts',
    hierarchy: 'A node hierarchy that loops or gives a node two parents',
    images: 'An image that is damaged or not the format it claims',
    truncated: 'Data that runs past the end of the file',
    references: "References to parts that don't exist",
    skeleton: "A skeleton whose bones don't share one root",
    json: "The model's description (JSON) doesn't follow the glTF format",
  },
};

const groupOf = (code: string): Group | null =>
  GROUP_OF[code] ?? (/^(ACCESSOR_)?ANIMATION_|^KHR_ANIMATION_POINTER/.test(code) ? 'animations' : null);

/** A validator issue code in plain words; null when we have none (show the validator's message). */
export function gltfIssueText(language: Language, code: string): string | null {
  const group = groupOf(code);
  return group ? TEXT[language][group] : null;
}

/** How to fix what stays refused, said once after the findings. */
export const REEXPORT_HINT: Record<Language, string> = {
  es: 'Cómo arreglarlo: abre el modelo en Blender (u otro editor), aplica las transformaciones, normaliza los pesos (Weight Paint → Normalize All) y expórtalo de nuevo como «glTF Binary (.glb)». Si viene de Ready Player Me o VRoid, descárgalo otra vez como .glb.',
  en: 'How to fix it: open the model in Blender (or another editor), apply transforms, normalise the weights (Weight Paint → Normalize All) and export it again as "glTF Binary (.glb)". If it comes from Ready Player Me or VRoid, download it again as .glb.',
};
