import type { Chunk } from "../types.js";

/** How the chunks of an index map onto the chunks of its re-read corpus. */
export interface UpdatePlan {
  /** Old chunk number -> new chunk number, or -1 when the old chunk is gone; kept chunks keep their order. */
  renumber: Int32Array;
  /** New chunk numbers that no old chunk provides (their text is new): these are tokenized and embedded. */
  added: number[];
  /** Number of old chunks kept. */
  kept: number;
}

/** The positions (of `positions`) whose `values` form a longest strictly increasing run, in order. */
function longestIncreasing(positions: readonly number[], values: Int32Array): number[] {
  const tails: number[] = [];
  const before = new Int32Array(positions.length).fill(-1);
  positions.forEach((position, k) => {
    const value = values[position];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[positions[tails[mid]]] < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) before[k] = tails[lo - 1];
    tails[lo] = k;
  });
  const run: number[] = [];
  for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k >= 0; k = before[k]) run.push(positions[k]);
  return run.reverse();
}

/**
 * Matches new chunks to old ones so that as little as possible is tokenized and embedded again.
 * A new chunk keeps an old chunk's postings and vector when it is the same object (its file's
 * bytes did not change) or when its search text equals an old chunk's (an edited file whose other
 * sections stayed as they were, a renamed file). Kept chunks must stay in order, since chunk
 * numbers are positions: a text match that would break the order counts as new. Pure.
 * `textOf` gives a chunk's search text (the text both layers index).
 */
export function planUpdate(
  oldChunks: readonly Chunk[],
  newChunks: readonly Chunk[],
  textOf: (chunk: Chunk) => string,
): UpdatePlan {
  const oldIdOf = new Map<Chunk, number>();
  oldChunks.forEach((chunk, id) => oldIdOf.set(chunk, id));
  const source = new Int32Array(newChunks.length).fill(-1);
  newChunks.forEach((chunk, i) => (source[i] = oldIdOf.get(chunk) ?? -1));
  // Same objects come from unchanged files, read in the same order: already ascending.
  const taken = new Uint8Array(oldChunks.length);
  for (const id of source) if (id >= 0) taken[id] = 1;

  const byText = new Map<string, number[]>();
  oldChunks.forEach((chunk, id) => {
    if (taken[id]) return;
    const text = textOf(chunk);
    const list = byText.get(text);
    if (list) list.push(id);
    else byText.set(text, [id]);
  });
  // For each new position, the old number of the next chunk kept by identity (the bound a text match must stay below).
  const nextKept = new Int32Array(newChunks.length + 1).fill(oldChunks.length);
  for (let i = newChunks.length - 1; i >= 0; i--) nextKept[i] = source[i] >= 0 ? source[i] : nextKept[i + 1];
  // Between two chunks kept by identity, match texts to old chunks of that stretch, then keep the
  // longest run of matches in increasing order: the rest count as new.
  let previousKept = -1;
  let segment: number[] = [];
  const closeSegment = () => {
    for (const i of longestIncreasing(segment, source)) taken[source[i]] = 2;
    for (const i of segment) {
      if (taken[source[i]] === 2) taken[source[i]] = 1;
      else {
        taken[source[i]] = 0;
        source[i] = -1;
      }
    }
    segment = [];
  };
  for (let i = 0; i < newChunks.length; i++) {
    if (source[i] >= 0) {
      closeSegment();
      previousKept = source[i];
      continue;
    }
    const candidates = byText.size > 0 ? byText.get(textOf(newChunks[i])) : undefined;
    const at = candidates?.findIndex((id) => id > previousKept && id < nextKept[i + 1] && !taken[id]) ?? -1;
    if (candidates === undefined || at < 0) continue;
    source[i] = candidates[at];
    taken[candidates[at]] = 1;
    segment.push(i);
  }
  closeSegment();

  const renumber = new Int32Array(oldChunks.length).fill(-1);
  const added: number[] = [];
  let kept = 0;
  source.forEach((id, i) => {
    if (id >= 0) {
      renumber[id] = i;
      kept++;
    } else added.push(i);
  });
  return { renumber, added, kept };
}
