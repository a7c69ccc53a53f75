import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { loadBeirDataset } from "../../src/eval/beir/load-beir-dataset.js";

const CORPUS = '{"_id": "d1", "title": "One", "text": "first"}\n{"_id": "d2", "text": "second"}\n';
const QUERIES = '{"_id": "q1", "text": "find one"}\n{"_id": "q2", "text": "find two"}\n';
const HEADER = "query-id\tcorpus-id\tscore\n";
const QRELS = `${HEADER}q1\td1\t1\n`;
const SECRET = "s3cr3t-token-value";

/** `n` judgements of query q1, each of a document the corpus lacks. */
const unknownDocuments = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `q1\tmissing-${from + i}\t1\n`).join("");

describe("loadBeirDataset keeps its errors bounded and free of file content", () => {
  let dir = "";

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "beir-bounded-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function write(files: Record<string, string>): Promise<void> {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(dir, name, ".."), { recursive: true });
      await writeFile(join(dir, name), content);
    }
  }

  async function failure(options?: Parameters<typeof loadBeirDataset>[2]): Promise<LookupKnowledgeError> {
    const error = await loadBeirDataset(dir, undefined, options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    return error as LookupKnowledgeError;
  }

  for (const file of ["corpus.jsonl", "queries.jsonl"]) {
    it(`never copies the start of a secret file linked in place of ${file} into the error`, async () => {
      await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
      await writeFile(join(dir, "secret.env"), `API_KEY=${SECRET}\nHOME=/root\n`);
      await rm(join(dir, file));
      await symlink(join(dir, "secret.env"), join(dir, file));
      const error = await failure();
      expect(error.code).toBe("DATASET_INVALID");
      expect(error.message).toContain(`${file}:1: invalid JSON`);
      expect(error.message).toContain("26 characters");
      expect(error.message).not.toContain("API_KEY");
      expect(error.message).not.toContain(SECRET);
    });
  }

  it("describes a JSON object where a string belongs instead of showing its fields", async () => {
    await write({
      "corpus.jsonl": `{"_id": "d1", "text": {"password": "${SECRET}"}}\n`,
      "queries.jsonl": QUERIES,
      "qrels.tsv": QRELS,
    });
    const error = await failure();
    expect(error.message).toContain('"text" must be a string, but got an object of 1 field.');
    expect(error.message).not.toContain(SECRET);
  });

  it("cuts a huge duplicate id to a short quote", async () => {
    const id = "d".repeat(200_000);
    await write({
      "corpus.jsonl": `{"_id": "${id}", "text": "a"}\n{"_id": "${id}", "text": "b"}\n`,
      "queries.jsonl": QUERIES,
      "qrels.tsv": QRELS,
    });
    const error = await failure();
    expect(error.message).toContain("duplicate document id");
    expect(error.message).toContain("(200000 characters)");
    expect(error.message.length).toBeLessThan(400);
  });

  it("refuses qrels with more unknown documents than the limit as soon as it is passed, naming the counts", async () => {
    // The line after the limit is malformed: had reading gone on, that would be the error.
    await write({
      "corpus.jsonl": CORPUS,
      "queries.jsonl": QUERIES,
      "qrels.tsv": `${QRELS}${unknownDocuments(1001)}not a judgement\n`,
    });
    const error = await failure();
    expect(error.code).toBe("DATASET_INVALID");
    expect(error.message).toContain(
      "1,001 of the first 1,002 judgements name something the dataset lacks (1,001 a document not in corpus.jsonl, 0 a query not in queries.jsonl), more than the 1,000 allowed",
    );
    expect(error.message).toContain('the first, on line 3, names document "missing-0"');
    expect(error.message).toContain("check --dataset and --split");
    expect(error.message.length).toBeLessThan(600);
  });

  it("reads qrels with as many unknown judgements as the limit, counting them", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}${unknownDocuments(20)}` });
    const { unknownJudgements } = await loadBeirDataset(dir, undefined, { maxUnknownJudgements: 20, maxUnknownShare: 1 });
    expect(unknownJudgements).toMatchObject({ judgements: 21, documents: 20, queries: 0 });
  });

  it("counts unknown queries and unknown documents together against maxUnknownJudgements", async () => {
    const unknownQueries = Array.from({ length: 3 }, (_, i) => `q-missing-${i}\td1\t1\n`).join("");
    await write({
      "corpus.jsonl": CORPUS,
      "queries.jsonl": QUERIES,
      "qrels.tsv": `${QRELS}${unknownDocuments(3)}${unknownQueries}`,
    });
    const error = await failure({ maxUnknownJudgements: 5 });
    expect(error.message).toContain("6 of the first 7 judgements");
    expect(error.message).toContain("(3 a document not in corpus.jsonl, 3 a query not in queries.jsonl)");
  });

  it("refuses qrels whose unknown judgements are more than 10% of them once more than 10 are unknown", async () => {
    const known = Array.from({ length: 88 }, (_, i) => `q1\td${(i % 2) + 1}\t1\n`).join("");
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}${known}${unknownDocuments(11)}` });
    const error = await failure();
    expect(error.message).toContain("11 of 100 judgements name something the dataset lacks");
    expect(error.message).toContain("more than 10% of them");
  });

  it("reads a small hand-made set that misses a few documents, whatever their share", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}${unknownDocuments(10)}` });
    const { qrels } = await loadBeirDataset(dir);
    expect(qrels.get("q1")?.size).toBe(11);
  });

  it("rejects limits out of range with INVALID_OPTION", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    expect((await failure({ maxUnknownJudgements: -1 })).code).toBe("INVALID_OPTION");
    expect((await failure({ maxUnknownShare: 1.5 })).code).toBe("INVALID_OPTION");
  });

  it("calls a corpus without documents an empty dataset", async () => {
    await write({ "corpus.jsonl": "\n", "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    const error = await failure();
    expect(error.code).toBe("DATASET_EMPTY");
    expect(error.message).toBe(`lookup-knowledge: ${join(dir, "corpus.jsonl")}: no documents; there is nothing to evaluate.`);
  });

  it("calls a queries file without queries an empty dataset", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": "", "qrels.tsv": QRELS });
    const error = await failure();
    expect(error.code).toBe("DATASET_EMPTY");
    expect(error.message).toContain("queries.jsonl: no queries;");
  });

  it("calls qrels with only a header an empty dataset, naming the split", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": HEADER });
    const error = await failure();
    expect(error.code).toBe("DATASET_EMPTY");
    expect(error.message).toContain("qrels.tsv: no judgements in the test split;");
  });

  it("calls qrels that judge only queries the queries file lacks an empty dataset", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${HEADER}q9\td1\t1\n` });
    const error = await failure();
    expect(error.code).toBe("DATASET_EMPTY");
    expect(error.message).toContain("no judgement of a query in queries.jsonl in the test split");
  });
});
