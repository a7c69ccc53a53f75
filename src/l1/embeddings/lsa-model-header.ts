import { LookupKnowledgeError } from "../../errors.js";

/** Format version written by this code; {@link validateLsaModelHeader} rejects any other. */
export const LSA_MODEL_VERSION: LsaModelHeader["version"] = 1;

/**
 * The JSON half of a serialised LSA model. The projection itself travels separately as
 * little-endian Float32 values, term-major: `terms.length × (dimensions - 1)` of them.
 */
export interface LsaModelHeader {
  /** Always `"lsa"`. */
  kind: "lsa";
  /** Format version: 1, the only one this code reads and writes. */
  version: 1;
  /** Length of every output vector; the last axis is reserved for text with no known terms. */
  dimensions: number;
  /** Number of documents of the corpus the model was fitted on (the `N` of the IDF). */
  documentCount: number;
  /**
   * Number of those documents the SVD was fitted on: all of them when the corpus had at most
   * `fitOptions.maxFitDocuments`, otherwise an evenly spread, seeded sample of that many (whose
   * terms make the vocabulary). Absent in models saved before sampling existed, which were fitted
   * on all `documentCount` documents.
   */
  svdDocumentCount?: number;
  /** Vocabulary in projection-row order. */
  terms: string[];
  /** Document frequency of each term, parallel to `terms`; the IDF is derived from it. */
  documentFrequencies: number[];
  /** Singular value of each of the `dimensions - 1` components, largest first (for inspection). */
  singularValues: number[];
  /** The options the model was fitted with, all defaults resolved (for provenance). */
  fitOptions: {
    dimensions: number;
    seed: number;
    powerIterations: number;
    minDocumentFrequency: number;
    maxVocabulary: number;
    /** Absent in models saved before sampling existed. */
    maxFitDocuments?: number;
  };
}

const PREFIX = "LsaEmbeddings model";

function invalidModel(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", message);
}

/**
 * Checks that a parsed header has the shape, version and internal consistency this code
 * expects, and that a projection of `projectionBytes` bytes belongs to it.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` naming the first field that is wrong and what was expected.
 */
export function validateLsaModelHeader(header: unknown, projectionBytes: number): LsaModelHeader {
  if (typeof header !== "object" || header === null)
    throw invalidModel(`${PREFIX}: header must be an object, got ${typeof header}`);
  const h = header as Record<string, unknown>;
  if (h.kind !== "lsa") throw invalidModel(`${PREFIX}: header kind must be "lsa", got ${JSON.stringify(h.kind)}`);
  if (h.version !== LSA_MODEL_VERSION) {
    throw invalidModel(
      `${PREFIX}: unsupported version ${JSON.stringify(h.version)} (this code reads version ${LSA_MODEL_VERSION}); refit the model`,
    );
  }
  const dimensions = h.dimensions;
  if (!isCount(dimensions) || dimensions < 1)
    throw invalidModel(`${PREFIX}: dimensions must be an integer >= 1, got ${JSON.stringify(dimensions)}`);
  const documentCount = h.documentCount;
  if (!isCount(documentCount))
    throw invalidModel(`${PREFIX}: documentCount must be a non-negative integer, got ${JSON.stringify(documentCount)}`);
  const { svdDocumentCount } = h;
  if (svdDocumentCount !== undefined && (!isCount(svdDocumentCount) || svdDocumentCount > documentCount)) {
    throw invalidModel(
      `${PREFIX}: svdDocumentCount must be an integer between 0 and documentCount (${documentCount}), got ${JSON.stringify(svdDocumentCount)}`,
    );
  }
  const { terms, documentFrequencies, singularValues } = h;
  if (!Array.isArray(terms) || !terms.every((t) => typeof t === "string"))
    throw invalidModel(`${PREFIX}: terms must be an array of strings`);
  if (new Set(terms).size !== terms.length) throw invalidModel(`${PREFIX}: terms contain duplicates`);
  if (!Array.isArray(documentFrequencies) || documentFrequencies.length !== terms.length) {
    throw invalidModel(`${PREFIX}: documentFrequencies must have one entry per term (${terms.length})`);
  }
  if (!documentFrequencies.every((df) => isCount(df) && df >= 1 && df <= documentCount)) {
    throw invalidModel(
      `${PREFIX}: documentFrequencies must be integers between 1 and documentCount (${documentCount})`,
    );
  }
  if (
    !Array.isArray(singularValues) ||
    singularValues.length !== dimensions - 1 ||
    !singularValues.every((s) => typeof s === "number")
  ) {
    throw invalidModel(`${PREFIX}: singularValues must hold dimensions - 1 = ${dimensions - 1} numbers`);
  }
  const expected = terms.length * (dimensions - 1) * 4;
  if (projectionBytes !== expected) {
    throw invalidModel(
      `${PREFIX}: projection buffer has ${projectionBytes} bytes but the header needs ${expected} ` +
        `(${terms.length} terms × ${dimensions - 1} components × 4-byte floats); the projection is truncated or belongs to another model`,
    );
  }
  return header as LsaModelHeader;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** True on little-endian platforms, where Float32 bytes need no reordering. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Encodes Float32 values as little-endian bytes, whatever the platform's byte order. */
export function encodeFloat32(values: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
  const out = Buffer.alloc(values.length * 4);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return out;
}

/**
 * Decodes little-endian Float32 bytes (length a multiple of 4). On a little-endian platform the
 * result is a view of `bytes` when they are 4-byte aligned (a copy otherwise): do not modify either.
 */
export function decodeFloat32(bytes: Buffer): Float32Array {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const out = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** File of a saved index holding the JSON header of the LSA model. */
export const LSA_MODEL_FILE = "lsa-model.json";
/** File of a saved index holding the little-endian Float32 projection of the LSA model. */
export const LSA_PROJECTION_FILE = "lsa-projection.f32";
