import type { BuildProgress } from "../knowledge-base/build-options.js";

/** A step with a count: an index-building phase, or any other named phase. */
export type ProgressEvent = BuildProgress | { phase: string; done: number; total: number };

const LABELS: Record<string, string> = {
  load: "reading corpus",
  tokenize: "tokenizing",
  keyword: "keyword index",
  fit: "fitting embedder",
  embed: "embedding",
  vectors: "vector index",
  save: "saving index",
  query: "running queries",
};

/**
 * A one-line progress bar on stderr when it is a terminal; silent otherwise, so that piped
 * output and CI logs stay clean.
 */
export function createProgressBar(stream: NodeJS.WriteStream = process.stderr): {
  update: (p: ProgressEvent) => void;
  done: () => void;
} {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = "";
  return {
    update({ phase, done, total }) {
      const width = 24;
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(ratio * width);
      const line = `${(LABELS[phase] ?? phase).padEnd(17)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`;
      if (line === last) return;
      last = line;
      stream.write(`\r${line}\x1b[K`);
    },
    done() {
      if (last !== "") stream.write("\r\x1b[K");
    },
  };
}
