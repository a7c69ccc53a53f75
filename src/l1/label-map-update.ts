import { checkRows, vectorIndexMisuse } from "./vector-rows.js";

/** New vectors of an incremental update of a vector index. */
export interface VectorAdditions {
  /** `chunkIds.length × dimensions` values: row `i` is the vector of chunk `chunkIds[i]`. */
  vectors: Float32Array;
  /** Chunk numbers (new numbering) of the rows of `vectors`. */
  chunkIds: readonly number[];
}

/** One incremental change of a vector index: see `VectorIndex.update`. */
export interface VectorIndexUpdate {
  /**
   * Previous chunk number → new chunk number, `-1` for a chunk whose vector is removed; one
   * entry per chunk of the previous numbering (`previous.chunkCount`).
   */
  renumber: Int32Array;
  /** Chunk numbers (previous numbering) to remove; when given it must list exactly the `-1`s of `renumber`. @default derived from `renumber` */
  remove?: readonly number[];
  /** Vectors of new or changed chunks. A changed chunk is removed and added again. @default none */
  add?: VectorAdditions;
  /** Domain of every chunk of the new numbering; its length is the new chunk count. */
  domains: readonly (string | undefined)[];
}

/** What an update does to the graph and its label map, checked. */
export interface LabelMapPlan {
  /** Label → chunk number of the new numbering (-1 deleted); added labels follow the old ones. */
  chunkOfLabel: Int32Array;
  /** Labels whose vectors the update deletes. */
  deleted: Int32Array;
  /** Rows of the added vectors, in label order. */
  additions: Float32Array;
  /** Chunk numbers of the added rows. */
  addedChunks: readonly number[];
}

/**
 * The plan of `change` over the label map `chunkOfLabel` of `live` chunks: every new chunk gets
 * exactly one vector, renumbered or added; removed chunks' labels are deleted, never reused.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a change that is not one-to-one onto the new chunks or a malformed vector.
 */
export function planLabelMapUpdate(
  chunkOfLabel: Int32Array,
  live: number,
  dimensions: number,
  change: VectorIndexUpdate,
): LabelMapPlan {
  const { renumber, domains } = change;
  const next = domains.length;
  if (!(renumber instanceof Int32Array) || renumber.length !== live)
    throw vectorIndexMisuse(`renumber must be an Int32Array with one entry per previous chunk (${live})`);
  const covered = new Uint8Array(next);
  const claim = (chunk: number, what: string) => {
    if (!Number.isInteger(chunk) || chunk < 0 || chunk >= next)
      throw vectorIndexMisuse(`${what} is ${chunk}, outside the new chunks 0 to ${next - 1}`);
    if (covered[chunk] === 1) throw vectorIndexMisuse(`new chunk ${chunk} is given twice`);
    covered[chunk] = 1;
  };
  let removed = 0;
  renumber.forEach((to, from) => (to === -1 ? removed++ : claim(to, `renumber[${from}]`)));
  if (change.remove !== undefined) checkRemoveList(change.remove, renumber, removed);
  const addedChunks = change.add?.chunkIds ?? [];
  const additions = change.add?.vectors ?? new Float32Array(0);
  addedChunks.forEach((chunk, i) => claim(chunk, `add.chunkIds[${i}]`));
  if (checkRows(additions, dimensions) !== addedChunks.length) {
    throw vectorIndexMisuse(
      `add.vectors holds ${additions.length / dimensions} vectors for ${addedChunks.length} chunk ids`,
    );
  }
  const missing = covered.indexOf(0);
  if (missing !== -1) throw vectorIndexMisuse(`new chunk ${missing} has neither a renumbered nor an added vector`);

  const nextMap = new Int32Array(chunkOfLabel.length + addedChunks.length);
  const deleted: number[] = [];
  chunkOfLabel.forEach((chunk, label) => {
    const to = chunk < 0 ? -1 : renumber[chunk];
    if (chunk >= 0 && to === -1) deleted.push(label);
    nextMap[label] = to;
  });
  addedChunks.forEach((chunk, i) => (nextMap[chunkOfLabel.length + i] = chunk));
  return { chunkOfLabel: nextMap, deleted: Int32Array.from(deleted), additions, addedChunks };
}

function checkRemoveList(remove: readonly number[], renumber: Int32Array, removed: number): void {
  const listed = new Set(remove);
  if (listed.size !== remove.length) throw vectorIndexMisuse("remove lists a chunk twice");
  for (const chunk of listed)
    if (renumber[chunk] !== -1)
      throw vectorIndexMisuse(`remove lists chunk ${chunk}, which renumber keeps (or which does not exist)`);
  if (listed.size !== removed)
    throw vectorIndexMisuse(`renumber removes ${removed} chunks but remove lists ${listed.size}`);
}
