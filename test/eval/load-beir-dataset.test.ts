import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadBeirDataset } from "../../src/eval/beir/load-beir-dataset.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url));

const CORPUS = '{"_id": "d1", "title": "One", "text": "first"}\n{"_id": "d2", "text": "second"}\n';
const QUERIES = '{"_id": "q1", "text": "find one"}\n';
const QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t1\n";

describe("loadBeirDataset on the beir-mini fixture", () => {
  it("reads every document, keeping extra fields as metadata", async () => {
    const { corpus } = await loadBeirDataset(FIXTURE);
    expect(corpus.map((doc) => doc.id)).toEqual([
      "doc-refund",
      "doc-invoice",
      "doc-password",
      "doc-2fa",
      "doc-export",
      "doc-delete",
    ]);
    expect(corpus[0]).toEqual({
      id: "doc-refund",
      title: "Refund policy",
      text: "Customers can request a full refund within 30 days of purchase.",
      metadata: { category: "billing", keywords: ["refund", "money back"], domain: "support" },
    });
    expect(corpus[1].metadata).toEqual({ category: "billing", tags: ["pdf"] });
    expect(corpus[2].metadata).toEqual({ category: "account", entities: ["sign-in page"] });
  });

  it("accepts `id` as well as `_id` and defaults a missing title to an empty string", async () => {
    const { corpus } = await loadBeirDataset(FIXTURE);
    expect(corpus[3].id).toBe("doc-2fa");
    expect(corpus[3].metadata).not.toHaveProperty("id");
    expect(corpus[5].title).toBe("");
  });

  it("reads the queries with their extra fields and the graded qrels", async () => {
    const { queries, qrels } = await loadBeirDataset(FIXTURE);
    expect(queries.map((q) => q.id)).toEqual(["q-refund", "q-password", "q-delete"]);
    expect(queries[2]).toEqual({ id: "q-delete", text: "remove my account", metadata: { intent: "destructive" } });
    expect(qrels.get("q-refund")).toEqual(
      new Map([
        ["doc-refund", 2],
        ["doc-invoice", 1],
        ["doc-export", 0],
      ]),
    );
    expect([...qrels.keys()]).toEqual(["q-refund", "q-password", "q-delete"]);
  });

  it("reads the top-level qrels.tsv for --split test, as without a split", async () => {
    const named = await loadBeirDataset(FIXTURE, "test");
    const plain = await loadBeirDataset(FIXTURE);
    expect(named.qrels).toEqual(plain.qrels);
    expect(named.queries.map((q) => q.id)).toEqual(["q-refund", "q-password", "q-delete"]);
  });

  it("reads queries and qrels from a split folder and the corpus from the dataset folder", async () => {
    const { corpus, queries, qrels } = await loadBeirDataset(FIXTURE, "train");
    expect(corpus).toHaveLength(6);
    expect(queries.map((q) => q.id)).toEqual(["t-invoice"]);
    expect(qrels).toEqual(new Map([["t-invoice", new Map([["doc-invoice", 1]])]]));
  });
});

describe("loadBeirDataset on hand-written folders", () => {
  let dir = "";

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "beir-test-"));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function write(files: Record<string, string>): Promise<void> {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(dir, name, ".."), { recursive: true });
      await writeFile(join(dir, name), content);
    }
  }

  it("reads BEIR's download layout, qrels/<split>.tsv, and keeps only the judged queries", async () => {
    await write({
      "corpus.jsonl": CORPUS,
      "queries.jsonl": '{"_id": "q1", "text": "a"}\n{"_id": "q-train", "text": "b"}\n',
      "qrels/test.tsv": QRELS,
      "qrels/dev.tsv": "query-id\tcorpus-id\tscore\nq-train\td2\t1\n",
    });
    expect((await loadBeirDataset(dir)).queries.map((q) => q.id)).toEqual(["q1"]);
    expect((await loadBeirDataset(dir, "dev")).queries.map((q) => q.id)).toEqual(["q-train"]);
  });

  it("accepts numeric ids, CRLF line ends, a byte-order mark and blank lines", async () => {
    await write({
      "corpus.jsonl": '\uFEFF{"_id": 7, "text": "seven"}\r\n\r\n{"_id": "d2", "text": "two"}\r\n',
      "queries.jsonl": '{"id": 1, "text": "q"}\r\n',
      "qrels.tsv": "query-id\tcorpus-id\tscore\r\n1\t7\t1\r\n",
    });
    const { corpus, queries, qrels } = await loadBeirDataset(dir);
    expect(corpus.map((d) => d.id)).toEqual(["7", "d2"]);
    expect(queries.map((q) => q.id)).toEqual(["1"]);
    expect(qrels.get("1")?.get("7")).toBe(1);
  });

  it("reads a qrels file without a header row whole", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": "q1\td1\t1\nq1\td2\t0\n" });
    expect((await loadBeirDataset(dir)).qrels.get("q1")).toEqual(
      new Map([
        ["d1", 1],
        ["d2", 0],
      ]),
    );
  });

  it("names the file and line of malformed JSON", async () => {
    await write({
      "corpus.jsonl": '{"_id": "d1", "text": "ok"}\n{"_id": "d2", "text": "cut off\n',
      "queries.jsonl": QUERIES,
      "qrels.tsv": QRELS,
    });
    await expect(loadBeirDataset(dir)).rejects.toThrow(
      new RegExp(`^lookup-knowledge: ${escape(join(dir, "corpus.jsonl"))}:2: invalid JSON: the line of 30 characters ends inside a value`),
    );
  });

  it("names the line of a record without an id", async () => {
    await write({
      "corpus.jsonl": CORPUS,
      "queries.jsonl": '{"_id": "q1", "text": "a"}\n\n{"text": "no id"}\n',
      "qrels.tsv": QRELS,
    });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`queries.jsonl:3: record has no "_id" or "id" field.`);
  });

  it("names the line of a record without text", async () => {
    await write({ "corpus.jsonl": '{"_id": "d1", "title": "t"}\n', "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`corpus.jsonl:1: "text" must be a string, but it is missing.`);
  });

  it("rejects a line that is JSON but not an object", async () => {
    await write({ "corpus.jsonl": "[1, 2]\n", "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    await expect(loadBeirDataset(dir)).rejects.toThrow("corpus.jsonl:1: expected one JSON object per line.");
  });

  it("rejects an id with whitespace before the run, since a TREC run file cannot hold it", async () => {
    await write({ "corpus.jsonl": '{"_id": "d 1", "text": "first"}\n', "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`corpus.jsonl:1: "_id" "d 1" contains whitespace, which a TREC run file cannot hold; rename the id.`);
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": '{"id": "q\\t1", "text": "a"}\n', "qrels.tsv": QRELS });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`queries.jsonl:1: "id" "q\\t1" contains whitespace`);
  });

  it("rejects a document id used twice, naming both lines", async () => {
    await write({
      "corpus.jsonl": `${CORPUS}{"_id": "d1", "text": "again"}\n`,
      "queries.jsonl": QUERIES,
      "qrels.tsv": QRELS,
    });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`corpus.jsonl:3: duplicate document id "d1" (first on line 1).`);
  });

  it("names the line of a qrels row with a non-integer score", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q1\td2\thigh\n` });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`qrels.tsv:3: score "high" is not an integer.`);
  });

  it("says that qrels fields must be tab-separated when a row uses spaces", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q1 d2 1\n` });
    await expect(loadBeirDataset(dir)).rejects.toThrow(
      "qrels.tsv:3: expected 3 tab-separated fields (query-id, corpus-id, score), found 1 (fields must be separated by tabs).",
    );
  });

  it("rejects a first qrels line that is neither the header nor a judgement", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": "qid\tdocid\trel\nq1\td1\t1\n" });
    await expect(loadBeirDataset(dir)).rejects.toThrow(/qrels\.tsv:1: expected the header row "query-id\\tcorpus-id\\tscore"/);
  });

  it("never copies the first line of a file linked in place of the qrels into the error", async () => {
    const secret = "API_KEY=s3cr3t-value\u0000HOME=/root\u0000" + "x".repeat(20_000);
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${secret}\n` });
    const error = (await loadBeirDataset(dir).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain("qrels.tsv:1: expected the header row");
    expect(error.message).toContain("found a line of 1 field and 20032 characters");
    expect(error.message).not.toContain("s3cr3t");
    expect(error.message.length).toBeLessThan(400);
  });

  it("shows a bad score cut short, and one that is not text only described", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q1\td2\t${"9".repeat(50)}x${"y".repeat(5000)}\n` });
    const long = (await loadBeirDataset(dir).catch((caught: unknown) => caught)) as Error;
    expect(long.message).toContain("(5051 characters) is not an integer");
    expect(long.message.length).toBeLessThan(400);
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q1\td2\t1\u001b[2J\n` });
    const control = (await loadBeirDataset(dir).catch((caught: unknown) => caught)) as Error;
    expect(control.message).toContain("score a value of 5 characters that is not plain text");
    expect(control.message).not.toContain("\u001b");
  });

  it("rejects two different grades for the same judgement, naming both lines", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q1\td1\t2\n` });
    await expect(loadBeirDataset(dir)).rejects.toThrow(
      `qrels.tsv:3: query "q1" judges document "d1" 2, but line 2 judged it 1.`,
    );
  });

  it("leaves out and counts judgements of a query that queries.jsonl lacks, and counts those of a missing document", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels.tsv": `${QRELS}q9\td1\t1\nq1\td9\t1\n` });
    const { qrels, unknownJudgements } = await loadBeirDataset(dir);
    expect([...qrels.keys()]).toEqual(["q1"]);
    expect(qrels.get("q1")).toEqual(new Map([["d1", 1], ["d9", 1]]));
    expect(unknownJudgements).toEqual({ judgements: 3, documents: 1, queries: 1, first: { lineNumber: 3, kind: "query", id: "q9" } });
  });

  it("says which file is missing and describes the BEIR layout", async () => {
    await write({ "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES });
    const error = await loadBeirDataset(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(`no qrels file: expected "${join(dir, "qrels.tsv")}" or "${join(dir, "qrels", "test.tsv")}".`);
    expect(message).toContain("A BEIR dataset folder holds corpus.jsonl, queries.jsonl and qrels");
  });

  it("says which corpus file is expected when there is none", async () => {
    await write({ "queries.jsonl": QUERIES, "qrels.tsv": QRELS });
    await expect(loadBeirDataset(dir)).rejects.toThrow(`no corpus file: expected "${join(dir, "corpus.jsonl")}".`);
  });

  it("says when the dataset folder does not exist", async () => {
    await expect(loadBeirDataset(join(dir, "nope"))).rejects.toThrow(`${join(dir, "nope")}: is not a directory.`);
  });

  it("says which qrels file a split folder needs", async () => {
    await write({ "corpus.jsonl": CORPUS, "train/queries.jsonl": QUERIES });
    await expect(loadBeirDataset(dir, "train")).rejects.toThrow(
      `no "train" qrels file: expected "${join(dir, "train", "qrels.tsv")}".`,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
