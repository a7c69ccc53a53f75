import type { PublishedBaseline } from "../report/report-sections.js";

/** What identifies a dataset well enough to compare with published figures. */
export interface DatasetIdentity {
  /** The dataset folder's name, e.g. "scifact". */
  name: string;
  split: string;
  documents: number;
  queries: number;
}

interface KnownDataset {
  matches: (dataset: DatasetIdentity) => boolean;
  baselines: PublishedBaseline[];
}

/**
 * Published figures, each checked against its source before it was written here (a figure that
 * could not be checked is left out). SciFact: BEIR's test split, 5,183 abstracts, 300 claims.
 */
const KNOWN: KnownDataset[] = [
  {
    matches: (d) => /scifact/i.test(d.name) && d.split === "test" && d.documents === 5183 && d.queries === 300,
    baselines: [
      { system: "BM25 (Elasticsearch)", source: "BEIR paper, Thakur et al. 2021, Table 2", metrics: { "nDCG@10": 0.665 } },
      { system: "BM25 flat (Lucene, title + text)", source: "Anserini regressions, beir-v1.0.0-scifact.flat", metrics: { "nDCG@10": 0.6789, "Recall@100": 0.9253 } },
    ],
  },
];

/** The published baselines of a known dataset and split; empty for any other. */
export function publishedBaselines(dataset: DatasetIdentity): PublishedBaseline[] {
  return KNOWN.find((known) => known.matches(dataset))?.baselines.map((baseline) => ({ ...baseline, metrics: { ...baseline.metrics } })) ?? [];
}
