import { LookupKnowledgeError } from "../errors.js";

/**
 * The label map of a vector index on disk. hnswlib stores vectors under labels; a label map says
 * which chunk each label is (`-1`: deleted), so that chunk numbers can change between index
 * versions without rebuilding the graph.
 *
 * An index saves it as its own data file (`vector-labels.bin`, the trailer below alone), so that
 * `vectors.hnsw` is exactly hnswlib's file and hnswlib reads it where it lies; the manifest's
 * checksums tie the two files to one generation. Indexes saved before that carry it as a trailer
 * appended to the hnswlib file:
 *
 * ```
 * hnswlib's own bytes
 * label map: Int32 little-endian × count   (label → chunk number, or -1)
 * count:     Uint32 little-endian
 * version:   Uint32 little-endian, VECTOR_LABELS_VERSION
 * magic:     8 bytes, ASCII "LKLABELS"
 * ```
 *
 * A file without the trailer (written before label maps existed) maps every label to the chunk
 * of the same number.
 */

/** Format version of the trailer. */
export const VECTOR_LABELS_VERSION = 1;

const MAGIC = Buffer.from("LKLABELS", "ascii");
/** count + version + magic. */
const FOOTER_BYTES = 16;

function corrupt(detail: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", `the label map of the vector index ${detail}`);
}

/** The trailer for `chunkOfLabel`, to append to the hnswlib file. */
export function encodeVectorLabels(chunkOfLabel: Int32Array): Buffer {
  const out = Buffer.alloc(chunkOfLabel.length * 4 + FOOTER_BYTES);
  for (let label = 0; label < chunkOfLabel.length; label++) out.writeInt32LE(chunkOfLabel[label], label * 4);
  const footer = chunkOfLabel.length * 4;
  out.writeUInt32LE(chunkOfLabel.length, footer);
  out.writeUInt32LE(VECTOR_LABELS_VERSION, footer + 4);
  MAGIC.copy(out, footer + 8);
  return out;
}

/** A vector file split into hnswlib's bytes and its label map (`null`: a file without one). */
export interface SplitVectorFile {
  graph: Uint8Array;
  chunkOfLabel: Int32Array | null;
}

/**
 * Splits the bytes of a vector file into hnswlib's part and the label map.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the trailer is there but cut or of another version.
 */
export function decodeVectorLabels(bytes: Uint8Array): SplitVectorFile {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < FOOTER_BYTES || !buffer.subarray(buffer.length - MAGIC.length).equals(MAGIC))
    return { graph: bytes, chunkOfLabel: null };
  const footer = buffer.length - FOOTER_BYTES;
  const count = buffer.readUInt32LE(footer);
  const version = buffer.readUInt32LE(footer + 4);
  if (version !== VECTOR_LABELS_VERSION)
    throw corrupt(`has version ${version}; this code reads version ${VECTOR_LABELS_VERSION}`);
  const start = footer - count * 4;
  if (start < 0) throw corrupt(`claims ${count} labels but the file holds ${buffer.length} bytes`);
  const chunkOfLabel = new Int32Array(count);
  for (let label = 0; label < count; label++) chunkOfLabel[label] = buffer.readInt32LE(start + label * 4);
  return { graph: bytes.subarray(0, start), chunkOfLabel };
}

/**
 * The label map of a `vector-labels.bin` file (the trailer alone).
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the bytes are not exactly one label map.
 */
export function decodeLabelFile(bytes: Uint8Array): Int32Array {
  const { graph, chunkOfLabel } = decodeVectorLabels(bytes);
  if (chunkOfLabel === null || graph.length !== 0) throw corrupt("file is not one label map");
  return chunkOfLabel;
}

/**
 * What is wrong with a label map for an index of `chunkCount` chunks over `storedCount` stored
 * vectors, or null: one entry per stored vector, each a chunk number from 0 to `chunkCount - 1`
 * or -1, and every chunk number exactly once.
 */
export function labelMapProblem(chunkOfLabel: Int32Array, chunkCount: number, storedCount: number): string | null {
  if (chunkOfLabel.length !== storedCount) return `has ${chunkOfLabel.length} labels for ${storedCount} stored vectors`;
  const seen = new Uint8Array(chunkCount);
  let live = 0;
  for (let label = 0; label < chunkOfLabel.length; label++) {
    const chunk = chunkOfLabel[label];
    if (chunk === -1) continue;
    if (chunk < 0 || chunk >= chunkCount)
      return `maps label ${label} to chunk ${chunk}, outside 0 to ${chunkCount - 1}`;
    if (seen[chunk] === 1) return `maps two labels to chunk ${chunk}`;
    seen[chunk] = 1;
    live++;
  }
  if (live !== chunkCount) return `names ${live} chunks but the index has ${chunkCount}`;
  return null;
}

/** Chunk number → label (-1 for a chunk without a vector), the inverse of a label map. */
export function labelOfChunks(chunkOfLabel: Int32Array, chunkCount: number): Int32Array {
  const labelOf = new Int32Array(chunkCount).fill(-1);
  chunkOfLabel.forEach((chunk, label) => {
    if (chunk >= 0 && chunk < chunkCount) labelOf[chunk] = label;
  });
  return labelOf;
}
