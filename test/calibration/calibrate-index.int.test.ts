import { Embeddings } from "@langchain/core/embeddings";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_CALIBRATION_CHUNKS } from "../../src/calibration/calibrate-index.js";
import type { CorpusCalibration } from "../../src/calibration/calibration.js";
import type { RetrievalSource } from "../../src/graph/options.js";
import { RELEVANCE_THRESHOLDS } from "../../src/ranking/relevance.js";
import { RETRIEVAL_DEFAULTS, resolveRetrievalOptions } from "../../src/graph/resolve-options.js";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { KnowledgeBase } from "../../src/knowledge-base/knowledge-base.js";
import { createTempDirs, expectLookupError, REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

/** The sample corpus of the repository (about 290 chunks). */
const SAMPLE_CORPUS = join(REPO_ROOT, "corpus");
const DIMENSIONS = 64;

/**
 * Deterministic embeddings on another scale than the statistical embedder's: words hashed into
 * 64 buckets, the vector normalised, then a constant added to every component before normalising
 * again. Every two texts then share a large common direction, so that all cosines sit high
 * (about 0.85 to 1), as with many hosted embedding models.
 */
class OffsetHashEmbeddings extends Embeddings {
  constructor(private readonly offset = 0.2) {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.vector(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }

  protected vector(text: string): number[] {
    const counts = new Array<number>(DIMENSIONS).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let hash = 2166136261;
      for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619) >>> 0;
      counts[hash % DIMENSIONS] += 1;
    }
    const norm = Math.hypot(...counts) || 1;
    const shifted = counts.map((count) => count / norm + this.offset);
    const length = Math.hypot(...shifted);
    return shifted.map((value) => value / length);
  }
}

const QUERY_FAILURE = "query embeddings unavailable (simulated)";

/** Embeds documents fine; every query embedding throws. */
class QueryThrowingEmbeddings extends OffsetHashEmbeddings {
  override async embedQuery(): Promise<number[]> {
    throw new Error(QUERY_FAILURE);
  }
}

const temp = createTempDirs("lookup-knowledge-calibration-");

/** Writes `count` one-section Markdown files into a fresh folder. */
async function smallCorpus(count: number): Promise<string> {
  const dir = await temp.make();
  for (let i = 0; i < count; i++) {
    await writeFile(
      join(dir, `note-${i}.md`),
      `---\ntitle: Note ${i}\ndomain: notes\n---\n\nNote ${i} explains how the billing team approves refund request ${i}. The ledger closes every night after the invoice run.\n`,
    );
  }
  return dir;
}

async function rewriteManifest(
  dir: string,
  edit: (manifest: { calibration: Record<string, unknown> }) => void,
): Promise<void> {
  const path = join(dir, "manifest.json");
  const manifest = JSON.parse(await readFile(path, "utf8")) as { calibration: Record<string, unknown> };
  edit(manifest);
  await writeFile(path, JSON.stringify(manifest, null, 2));
}

function expectSane(calibration: CorpusCalibration): void {
  const r = calibration.relevance;
  for (const value of Object.values(r)) {
    expect(value).toBeGreaterThanOrEqual(-1);
    expect(value).toBeLessThanOrEqual(1);
  }
  expect(r.partialCoverage).toBeLessThan(r.strongCoverage);
  expect(r.semanticSupport).toBeLessThan(r.strongSimilarity);
  expect(calibration.l0Weight).toBeGreaterThanOrEqual(0);
  expect(calibration.l0Weight).toBeLessThanOrEqual(1);
}

let sample: KnowledgeBase;

beforeAll(async () => {
  sample = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS });
});

afterAll(async () => {
  await temp.cleanup();
});

describe("calibration of a knowledge base too small or with calibration off", () => {
  it("keeps the defaults for a 10-chunk corpus, naming the chunk count", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: await smallCorpus(10) });

    expect(kb.chunks).toHaveLength(10);
    // Nothing says what a similarity means here: the judgement goes by coverage alone.
    const relevance = { ...RELEVANCE_THRESHOLDS, semanticSupport: 1, strongSimilarity: 1 };
    expect(kb.calibration).toMatchObject({
      source: "defaults",
      pseudoQueries: 0,
      l0Weight: RETRIEVAL_DEFAULTS.fusion.l0Weight,
      relevance,
      measured: null,
    });
    expect(kb.calibration.note).toContain("10 chunks");
    expect(kb.calibration.note).toContain(String(MIN_CALIBRATION_CHUNKS));
    expect(kb.calibration.note).toContain("similarity is not used");
  });

  it("keeps similarity in use on a 10-chunk corpus without a dense layer to judge by", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: await smallCorpus(10), embeddings: null });

    expect(kb.calibration).toMatchObject({ source: "defaults", relevance: RELEVANCE_THRESHOLDS });
    expect(kb.calibration.note).not.toContain("similarity");
  });

  it("keeps the defaults, saying calibration is off, with pseudoQueries 0", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS, calibration: { pseudoQueries: 0 } });

    expect(kb.calibration).toMatchObject({
      source: "defaults",
      pseudoQueries: 0,
      relevance: RELEVANCE_THRESHOLDS,
      measured: null,
    });
    expect(kb.calibration.note).toMatch(/turned off/);
  });
});

describe("calibration of the sample corpus", () => {
  it("is measured on 200 pseudo-queries with thresholds and a weight in range", () => {
    expect(sample.chunks.length).toBeGreaterThan(200);
    expect(sample.calibration).toMatchObject({ source: "measured", pseudoQueries: 200 });
    expectSane(sample.calibration);
    const measured = sample.calibration.measured!;
    for (const mrr of [measured.mrr.l0, measured.mrr.l1!, measured.mrr.fused]) {
      expect(mrr).toBeGreaterThan(0);
      expect(mrr).toBeLessThanOrEqual(1);
    }
    for (const q of [
      measured.coverage.target,
      measured.coverage.background,
      measured.similarity!.target,
      measured.similarity!.background,
    ]) {
      expect(q.p25).toBeLessThanOrEqual(q.p50);
      expect(q.p50).toBeLessThanOrEqual(q.p85);
      expect(q.p85).toBeLessThanOrEqual(q.p95);
    }
  });

  it("gives the same calibration on every build", async () => {
    const again = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS });

    expect(again.calibration).toStrictEqual(sample.calibration);
  });

  it("measures coverage but keeps the similarity defaults for an L0-only base", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS, embeddings: null });

    expect(kb.calibration).toMatchObject({ source: "measured", l0Weight: RETRIEVAL_DEFAULTS.fusion.l0Weight });
    expect(kb.calibration.relevance.semanticSupport).toBe(RELEVANCE_THRESHOLDS.semanticSupport);
    expect(kb.calibration.relevance.strongSimilarity).toBe(RELEVANCE_THRESHOLDS.strongSimilarity);
    expect(kb.calibration.measured).toMatchObject({ similarity: null, mrr: { l1: null } });
  });
});

describe("a saved calibration", () => {
  it("is restored exactly by load", async () => {
    const dir = await temp.make();
    await sample.save(dir);

    const loaded = await KnowledgeBase.load(dir);

    expect(loaded.calibration).toStrictEqual(sample.calibration);
  });

  it.each<[string, (calibration: Record<string, unknown>) => void, RegExp]>([
    ["an l0Weight of 7", (c) => void (c.l0Weight = 7), /no valid calibration\.l0Weight/],
    ["no relevance thresholds", (c) => void delete c.relevance, /no valid calibration\.relevance/],
    [
      "a threshold that is a string",
      (c) => void ((c.relevance as Record<string, unknown>).strongCoverage = "0.6"),
      /no valid calibration\.relevance\.strongCoverage/,
    ],
    ["an unknown source", (c) => void (c.source = "guessed"), /no valid calibration\.source/],
  ])("makes the index fail to load with INDEX_CORRUPT when tampered to %s", async (_name, edit, message) => {
    const dir = await temp.make();
    await sample.save(dir);
    await rewriteManifest(dir, (manifest) => edit(manifest.calibration));

    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");

    expect(error.message).toMatch(message);
    expect(error.message).toContain("lookup-knowledge index");
  });

  it("is required: a manifest without one fails to load with INDEX_CORRUPT", async () => {
    const dir = await temp.make();
    await sample.save(dir);
    await rewriteManifest(dir, (manifest) => void delete (manifest as Partial<typeof manifest>).calibration);

    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");

    expect(error.message).toMatch(/no valid calibration \(expected an object\)/);
  });
});

describe("calibration with custom embeddings", () => {
  it("follows the embedder's similarity scale: cosines that sit high give high similarity thresholds", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS, embeddings: new OffsetHashEmbeddings() });

    expect(kb.calibration).toMatchObject({ source: "measured", pseudoQueries: 200 });
    expectSane(kb.calibration);
    expect(kb.calibration.relevance.semanticSupport).toBeGreaterThan(0.7);
    expect(kb.calibration.relevance.strongSimilarity).toBeGreaterThan(0.7);
    expect(kb.calibration.relevance.semanticSupport).toBeGreaterThan(
      sample.calibration.relevance.semanticSupport + 0.3,
    );
    expect(kb.calibration.relevance.semanticSupport).toBeGreaterThan(RELEVANCE_THRESHOLDS.semanticSupport + 0.3);
    expect(kb.calibration.measured?.similarity?.background.p25).toBeGreaterThan(0.7);
  });

  it("still builds, with the defaults and a note naming the failure, when query embeddings throw", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS, embeddings: new QueryThrowingEmbeddings() });

    expect(kb.l1).not.toBeNull();
    expect(kb.calibration).toMatchObject({
      source: "defaults",
      pseudoQueries: 0,
      relevance: { ...RELEVANCE_THRESHOLDS, semanticSupport: 1, strongSimilarity: 1 },
      measured: null,
    });
    expect(kb.calibration.note).toMatch(/embeddings failed while calibrating/);
    expect(kb.calibration.note).toContain(QUERY_FAILURE);
  });
});

describe("the retrieval graph and a knowledge base's calibration", () => {
  it("takes the calibrated fusion weight and thresholds as its defaults", () => {
    const settings = resolveRetrievalOptions({ tracePath: null }, sample);

    expect(settings.fusion.l0Weight).toBe(sample.calibration.l0Weight);
    expect(settings.relevance).toEqual(sample.calibration.relevance);
    expect(settings.relevance).not.toEqual(RETRIEVAL_DEFAULTS.relevance);
  });

  it("lets explicit options win over the calibration, one value at a time", () => {
    const settings = resolveRetrievalOptions(
      { tracePath: null, relevance: { strongCoverage: 0.95 }, fusion: { l0Weight: 0.5 } },
      sample,
    );

    expect(settings.fusion.l0Weight).toBe(0.5);
    expect(settings.relevance).toEqual({ ...sample.calibration.relevance, strongCoverage: 0.95 });
  });

  it("judges lookups with the knowledge base's thresholds unless its options override them", async () => {
    const query = { query: "How do I roll back a release?" };
    const withoutSimilarity: RetrievalSource = {
      l0: sample.l0,
      l1: sample.l1,
      fingerprint: sample.fingerprint,
      domains: sample.domains,
      calibration: {
        l0Weight: sample.calibration.l0Weight,
        relevance: { ...sample.calibration.relevance, semanticSupport: 1, strongSimilarity: 1 },
      },
    };
    const graphs = {
      calibrated: createRetrievalGraph({ knowledgeBase: sample, tracePath: null }),
      sourceOff: createRetrievalGraph({ knowledgeBase: withoutSimilarity, tracePath: null }),
      optionOff: createRetrievalGraph({
        knowledgeBase: sample,
        tracePath: null,
        relevance: { semanticSupport: 1, strongSimilarity: 1 },
      }),
      optionOn: createRetrievalGraph({
        knowledgeBase: withoutSimilarity,
        tracePath: null,
        relevance: { semanticSupport: 0.3, strongSimilarity: 0.7 },
      }),
    };
    try {
      const reason = async (graph: (typeof graphs)["calibrated"]) =>
        (await graph.invoke(query)).result?.relevance.reason ?? "";

      expect(await reason(graphs.calibrated)).not.toContain("similarity not used");
      expect(await reason(graphs.sourceOff)).toContain("similarity not used");
      expect(await reason(graphs.optionOff)).toContain("similarity not used");
      expect(await reason(graphs.optionOn)).not.toContain("similarity not used");
    } finally {
      await Promise.all(Object.values(graphs).map((graph) => graph.close()));
    }
  });
});

/** Fine for the build's batches; from call `firstBad` on, `embedDocuments` answers with `answer(texts)`. */
class LaterBatchEmbeddings extends OffsetHashEmbeddings {
  calls = 0;
  readonly sizes: number[] = [];
  constructor(
    private readonly firstBad: number,
    private readonly answer: (texts: string[], vector: (text: string) => number[]) => unknown,
  ) {
    super();
  }
  override async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls++;
    this.sizes.push(texts.length);
    return (
      this.calls >= this.firstBad
        ? this.answer(texts, (text) => this.vector(text))
        : texts.map((text) => this.vector(text))
    ) as number[][];
  }
}

describe("calibration against embeddings that misbehave only while calibrating", () => {
  // The sample corpus embeds in 5 batches of 64 at the default batch size: call 6 is calibration's.
  const answers: Record<string, (texts: string[], vector: (text: string) => number[]) => unknown> = {
    "one vector too few": (texts, vector) => texts.slice(1).map(vector),
    "null rows": (texts) => texts.map(() => null),
    "rows that throw when read": (texts, vector) =>
      new Proxy(texts.map(vector), {
        get: (target, key) =>
          key === "0"
            ? (() => {
                throw new Error("row unreadable");
              })()
            : Reflect.get(target, key),
      }),
  };

  it.each(Object.keys(answers))("keeps the defaults, similarity unused, and names the garbage: %s", async (name) => {
    const kb = await KnowledgeBase.build({
      corpusDir: SAMPLE_CORPUS,
      embeddings: new LaterBatchEmbeddings(6, answers[name]),
    });

    expect(kb.calibration).toMatchObject({
      source: "defaults",
      relevance: { semanticSupport: 1, strongSimilarity: 1 },
    });
    expect(kb.calibration.note).toMatch(/embeddings failed while calibrating/);
    expect(kb.calibration.note).toMatch(/EMBEDDINGS_INVALID|embedDocuments returned/);
  });

  it("sends calibration's texts in batches no larger than embedBatchSize", async () => {
    const embeddings = new LaterBatchEmbeddings(Infinity, () => []);
    const kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS, embeddings, embedBatchSize: 16 });

    expect(kb.calibration.source).toBe("measured");
    expect(Math.max(...embeddings.sizes)).toBeLessThanOrEqual(16);
    expect(embeddings.sizes.length).toBeGreaterThan(Math.ceil(kb.chunks.length / 16));
  });

  it("leaves similarity out with custom embeddings when calibration is off, since the defaults are the statistical embedder's", async () => {
    const kb = await KnowledgeBase.build({
      corpusDir: SAMPLE_CORPUS,
      embeddings: new OffsetHashEmbeddings(),
      calibration: { pseudoQueries: 0 },
    });

    expect(kb.calibration).toMatchObject({
      source: "defaults",
      relevance: { semanticSupport: 1, strongSimilarity: 1 },
    });
    expect(kb.calibration.note).toMatch(/turned off/);
  });
});

describe("calibration of a corpus with copies and of a one-file corpus", () => {
  it("does not take a copy of the answer in another file for background", async () => {
    const dir = await temp.make();
    await cp(SAMPLE_CORPUS, dir, { recursive: true });
    await cp(join(SAMPLE_CORPUS, "billing"), join(dir, "archive"), { recursive: true });
    const copied = await KnowledgeBase.build({ corpusDir: dir });

    expect(copied.calibration.source).toBe("measured");
    // Copies as background pushed the coverage levels to their ceiling (0.9 / 0.95).
    expect(copied.calibration.relevance.partialCoverage).toBeLessThan(0.8);
    expect(
      Math.abs(copied.calibration.relevance.partialCoverage - sample.calibration.relevance.partialCoverage),
    ).toBeLessThan(0.1);
  });

  it("finds background outside the question's own section when every chunk is in one file", async () => {
    const chunks = sample.chunks.map((chunk) => ({ ...chunk, content: chunk.content, file: "handbook.md" }));
    const kb = await KnowledgeBase.fromChunks(chunks);

    expect(kb.calibration.source).toBe("measured");
    expect(kb.calibration.note).toBeNull();
    expect(kb.calibration.measured?.similarity).not.toBeNull();
  });
});
