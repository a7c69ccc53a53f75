import { spawnSync } from "node:child_process";
import { LEGACY_DATA_FILES } from "../../src/knowledge-base/index-layout.js";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  KnowledgeBase,
  type Chunk,
  type LookupResult,
} from "../../src/index.js";
import { loadIndexParts } from "../../src/knowledge-base/index-store.js";
import type { SaveProgress } from "../../src/knowledge-base/save-options.js";
import { createTempDirs, expectLookupError, KB_DIR } from "./helpers/integration-fixtures.js";
import { plain } from "../helpers/plain.js";
import { toPreviousVectorLayout } from "../helpers/previous-vector-layout.js";

const QUERIES = [
  "how do I roll back a bad deploy with Helmsman",
  "invoice run rollback wrong amounts",
  "rotate an API key",
  "frozen account unpaid invoice",
];

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split("\\")
        .join("/"),
    )
    .sort();
}

/** The fixture corpus, built once for this file: the tests read it and save it, never change it. */
let fixture: Promise<KnowledgeBase> | undefined;
const fixtureKnowledgeBase = () => (fixture ??= KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} }));

describe("KnowledgeBase.build over the fixture corpus", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await fixtureKnowledgeBase();
  });
  afterAll(() => temp.cleanup());

  it("gives every chunk the source `<relative path>#<heading slug>` and a unique one", async () => {
    const files = await markdownFiles(KB_DIR);
    expect(files).toHaveLength(11);
    for (const chunk of kb.chunks) {
      const [file, slug] = chunk.source.split("#");
      expect(file).toBe(chunk.file);
      expect(files).toContain(chunk.file);
      expect(slug).toMatch(/^[a-z0-9-]+$/);
    }
    expect(new Set(kb.chunks.map((chunk) => chunk.source)).size).toBe(kb.chunks.length);
    expect(new Set(kb.chunks.map((chunk) => chunk.file))).toEqual(new Set(files));
  });

  it("keeps the heading path of nested sections as the breadcrumb, under the document title", () => {
    const bySource = new Map(kb.chunks.map((chunk) => [chunk.source, chunk]));
    expect(bySource.get("deploy/service-rollback.md#top")?.breadcrumb).toEqual(["Service Rollback"]);
    expect(bySource.get("deploy/service-rollback.md#rolling-back-with-helmsman")?.breadcrumb).toEqual([
      "Service Rollback",
      "Rolling Back with Helmsman",
    ]);
    expect(bySource.get("deploy/service-rollback.md#database-changes")?.breadcrumb).toEqual([
      "Service Rollback",
      "Rolling Back with Helmsman",
      "Database Changes",
    ]);
    expect(bySource.get("billing/invoice-run-rollback.md#when-to-roll-back-a-batch")?.breadcrumb).toEqual([
      "Invoice Run Rollback",
      "When to Roll Back a Batch",
    ]);
  });

  it("reads `category` and `tags` as the domain and keywords", () => {
    const pipeline = kb.chunks.find((chunk) => chunk.file === "deploy/build-pipeline.md");
    expect(pipeline?.meta.domain).toBe("deployment");
    expect(pipeline?.meta.keywords).toEqual(["ci", "pipeline", "container image"]);
  });

  it("lists the three domains of the corpus, sorted, and leaves out the file without one", () => {
    expect(kb.domains).toEqual(["access", "billing", "deployment"]);
    expect(kb.chunks.some((chunk) => chunk.file === "glossary.md" && chunk.meta.domain === undefined)).toBe(true);
    expect(kb.skipped).toEqual([]);
  });

  it("answers the same top sources with the same fingerprint after save and load", async () => {
    const dir = await temp.make();
    await kb.save(dir);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
      fingerprint: string;
      chunkCount: number;
      domains: string[];
    };
    expect(manifest.fingerprint).toBe(kb.fingerprint);
    expect(manifest.chunkCount).toBe(kb.chunks.length);
    expect(manifest.domains).toEqual(["access", "billing", "deployment"]);

    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.fingerprint).toBe(kb.fingerprint);
    expect(plain(loaded.chunks)).toEqual(plain(kb.chunks));
    expect(loaded.domains).toEqual(kb.domains);

    const built = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const reloaded = createRetrievalGraph({ knowledgeBase: loaded, tracePath: null });
    for (const query of QUERIES) {
      const a = (await built.invoke({ query })).result;
      const b = (await reloaded.invoke({ query })).result;
      expect(a?.l1Status, query).toBe("ok");
      expect(b?.l1Status, query).toBe("ok");
      expect(a?.evidence.length, query).toBeGreaterThan(0);
      expect(
        b?.evidence.map((block) => block.source),
        query,
      ).toEqual(a?.evidence.map((block) => block.source));
      expect(
        b?.evidence.map((block) => block.retrievalLayer),
        query,
      ).toEqual(a?.evidence.map((block) => block.retrievalLayer));
    }
  });

  it("finds the document a query is about as the primary evidence, through the tool", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const expected: Record<string, string> = {
      "how do I roll back a bad deploy with Helmsman": "deploy/service-rollback.md",
      "invoice run rollback wrong amounts": "billing/invoice-run-rollback.md",
      "rotate an API key": "access/api-key-rotation.md",
    };
    for (const [query, file] of Object.entries(expected)) {
      const message = await lookup.invoke({ type: "tool_call", id: "kb-test", name: lookup.name, args: { query } });
      const result = message.artifact as LookupResult;
      expect(result.primary?.source.split("#")[0], query).toBe(file);
      expect(String(message.content), query).toContain(`source: ${result.primary?.source}`);
    }
  });
});

describe("KnowledgeBase.fromChunks", () => {
  it("rejects two chunks with the same source, naming it", async () => {
    const chunk = {
      source: "a#top",
      file: "a",
      breadcrumb: [],
      content: "text",
      meta: { keywords: [], entities: [], aliases: [] },
    };
    await expect(
      KnowledgeBase.fromChunks([chunk, { ...chunk, content: "other" }], { embeddings: null }),
    ).rejects.toThrow(/two chunks share the source "a#top"/);
  });
});

/** The pid of a process that has exited, for leftovers of a killed run. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("could not spawn a short-lived process");
  return pid;
}

async function entries(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

async function generationOf(dir: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { generation: string }).generation;
}

function chunk(source: string, content: string): Chunk {
  return {
    source,
    file: source.split("#")[0],
    breadcrumb: [source],
    content,
    meta: { keywords: [], entities: [], aliases: [] },
  };
}

describe("KnowledgeBase.save into a folder", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;
  let other: KnowledgeBase;

  beforeAll(async () => {
    kb = await fixtureKnowledgeBase();
    other = await KnowledgeBase.fromChunks([
      chunk("a.md#top", "alpha release notes"),
      chunk("b.md#top", "beta rollback notes"),
    ]);
  });
  afterAll(() => temp.cleanup());

  it("leaves exactly the manifest and one generation folder after saving over a previous index", async () => {
    const dir = await temp.make();
    await other.save(dir);
    await kb.save(dir);
    const generation = await generationOf(dir);
    expect(generation).toMatch(/^gen-[0-9a-f]{16}$/);
    expect(await entries(dir)).toEqual([generation, "manifest.json"].sort());
    expect((await KnowledgeBase.load(dir)).fingerprint).toBe(kb.fingerprint);
  });

  it("removes the leftovers of killed runs and keeps every file the store did not create", async () => {
    const dir = await temp.make();
    await other.save(dir);
    const stale = "gen-00000000deadbeef";
    const pid = deadPid();
    await mkdir(join(dir, stale));
    await writeFile(join(dir, stale, "chunks.json"), "[");
    await writeFile(join(dir, `${stale}.${pid}.writing`), "");
    await writeFile(join(dir, `gen-0123456789abcdef.${pid}.writing`), "");
    await writeFile(join(dir, "chunks.json.4242.tmp"), "partial");
    await writeFile(join(dir, "vectors.hnsw.4242.tmp"), "partial");
    await writeFile(join(dir, "notes.txt"), "mine");
    await mkdir(join(dir, "gen-notes"));
    await writeFile(join(dir, "chunks.json.backup"), "mine too");
    await kb.save(dir);
    expect(await entries(dir)).toEqual(
      [await generationOf(dir), "chunks.json.backup", "gen-notes", "manifest.json", "notes.txt"].sort(),
    );
    expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("mine");
  });

  it("replaces an index of the old flat layout and removes its data files", async () => {
    const dir = await temp.make();
    const flat = await temp.make();
    await kb.save(flat);
    const generation = await generationOf(flat);
    const manifest = JSON.parse(await readFile(join(flat, "manifest.json"), "utf8")) as Record<string, unknown>;
    const names = await readdir(join(flat, generation));
    // The flat layout held these names at the top of the folder.
    for (const name of names)
      if (LEGACY_DATA_FILES.includes(name)) await cp(join(flat, generation, name), join(dir, name));
    for (const name of ["keyword-index.json", "bm25.json"]) await writeFile(join(dir, name), "{}");
    delete manifest.generation;
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ ...manifest, formatVersion: 1 }));
    await other.save(dir);
    expect(await entries(dir)).toEqual([await generationOf(dir), "manifest.json"].sort());
    expect((await KnowledgeBase.load(dir)).fingerprint).toBe(other.fingerprint);
  });

  it("refuses to overwrite a folder whose manifest.json belongs to something else, and leaves it untouched", async () => {
    const dir = await temp.make();
    const webManifest = JSON.stringify({ name: "My App", short_name: "app", start_url: "." });
    await writeFile(join(dir, "manifest.json"), webManifest);
    await writeFile(join(dir, "index.html"), "<!doctype html>");
    const error = await expectLookupError(kb.save(dir), "INDEX_WRITE_FAILED");
    expect(error.message).toContain(dir);
    expect(await readFile(join(dir, "manifest.json"), "utf8")).toBe(webManifest);
    expect(await entries(dir)).toEqual(["index.html", "manifest.json"]);
  });

  it("refuses to write into a non-empty folder that holds no index", async () => {
    const dir = await temp.make();
    await writeFile(join(dir, "package.json"), "{}");
    const error = await expectLookupError(kb.save(dir), "INDEX_WRITE_FAILED");
    expect(error.message).toContain(dir);
    expect(await entries(dir)).toEqual(["package.json"]);
  });

  it("reports INDEX_WRITE_FAILED, naming the path, when the folder is a file", async () => {
    const file = join(await temp.make(), "index");
    await writeFile(file, "not a folder");
    const error = await expectLookupError(kb.save(file), "INDEX_WRITE_FAILED");
    expect(error.message).toContain(file);
  });

  it("saves into a folder that does not exist yet, creating its parents", async () => {
    const dir = join(await temp.make(), "a", "b", "index");
    await kb.save(dir);
    expect((await KnowledgeBase.load(dir)).fingerprint).toBe(kb.fingerprint);
  });

  it("reports every save step in order: cleanup of leftovers, each file, staging, the commit, the cleanup", async () => {
    const dir = await temp.make();
    await other.save(dir);
    const steps: SaveProgress[] = [];
    await kb.save(dir, { onProgress: (progress) => steps.push(progress) });
    const labels = steps.map(({ step, file }) => (step === "write" ? `write:${file}` : step));
    const removedOld = labels.indexOf("remove");
    expect(labels.filter((label) => label !== "remove")).toEqual([
      "collect",
      "write:chunk-list.json",
      "write:contents.bin",
      "write:bm25.bin",
      "write:files.json",
      "write:lsa-model.json",
      "write:lsa-projection.f32",
      "write:vectors.hnsw",
      "write:vector-labels.bin",
      "stage",
      "commit",
      "cleanup",
    ]);
    expect(removedOld).toBeGreaterThan(labels.indexOf("commit"));
    expect(steps.every(({ phase, total }) => phase === "save" && total === steps[0].total)).toBe(true);
    expect(steps.map(({ done }) => done)).toEqual([...steps.map(({ done }) => done)].sort((a, b) => a - b));
    expect(steps.at(-1)?.done).toBe(steps[0].total);
  });

  it("reads the manifest again when the generation it names vanishes during the load", async () => {
    const dir = await temp.make();
    await other.save(dir);
    let swapped = false;
    const parts = await loadIndexParts(
      dir,
      {},
      {
        async readFile(path) {
          if (!swapped) {
            swapped = true;
            await kb.save(dir);
          }
          return readFile(path);
        },
      },
    );
    expect(swapped).toBe(true);
    expect(plain(parts.chunks)).toEqual(plain(kb.chunks));
  });

  it("hands hnswlib the bytes it verified in an index of the previous layout, even when the file on disk changes right after the check", async () => {
    const dir = await temp.make();
    await kb.save(dir);
    await toPreviousVectorLayout(dir);
    let tampered = false;
    const parts = await loadIndexParts(
      dir,
      {},
      {
        async readFile(path) {
          const bytes = await readFile(path);
          if (path.endsWith("vectors.hnsw")) {
            await writeFile(path, Buffer.alloc(bytes.length, 0xff));
            tampered = true;
          }
          return bytes;
        },
      },
    );
    expect(tampered).toBe(true);
    expect(parts.vectorIndex?.size).toBe(kb.chunks.length);
  });

  it("lets two saves into one folder at once both finish, leaving one complete index and no leftovers", async () => {
    const dir = await temp.make();
    await other.save(dir);
    await Promise.all([kb.save(dir), other.save(dir), kb.save(dir)]);
    const loaded = await KnowledgeBase.load(dir);
    expect([kb.fingerprint, other.fingerprint]).toContain(loaded.fingerprint);
    await kb.save(dir);
    expect(await entries(dir)).toEqual([await generationOf(dir), "manifest.json"].sort());
  });

  it("keeps the previous index when a save fails before its commit, and removes the partial generation", async () => {
    const dir = await temp.make();
    await other.save(dir);
    const before = await entries(dir);
    const error = await expectLookupError(
      kb.save(dir, {
        onProgress: ({ step }) => {
          if (step === "stage") throw new Error("simulated failure while staging");
        },
      }),
      "INDEX_WRITE_FAILED",
    );
    expect(error.message).toContain(dir);
    expect(error.message).toContain("simulated failure while staging");
    expect(await entries(dir)).toEqual(before);
    expect((await KnowledgeBase.load(dir)).fingerprint).toBe(other.fingerprint);
    await rm(dir, { recursive: true });
  });
});
