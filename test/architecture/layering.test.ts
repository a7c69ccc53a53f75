import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import {
  FakeL0Searcher,
  FakeL1Searcher,
  REFUND_CHUNK,
  fakeSource,
  hints,
  makeCandidate,
} from "../helpers/retrieval-fakes.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";
import { folderCycles, importEdges, relativeSpecifiers, sourceFiles } from "./import-graph.js";

describe("the package's layering", () => {
  it("keeps every relative import of src/ inside src/ (never eval/, bench/, test/ or examples/)", async () => {
    const src = resolve(REPO_ROOT, "src");
    const files = await sourceFiles(src);
    expect(files.length).toBeGreaterThan(50);
    const outside: string[] = [];
    for (const file of files) {
      for (const specifier of relativeSpecifiers(await readFile(file, "utf8"))) {
        const target = resolve(dirname(file), specifier);
        if (!(target + sep).startsWith(src + sep)) outside.push(`${relative(REPO_ROOT, file)} imports ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it("finds an import that leaves src/ when there is one (the check can fail)", () => {
    expect(
      relativeSpecifiers(`import { x } from "../../eval/runner/beir-eval.js";\nconst m = await import("./y.js");`),
    ).toEqual(["../../eval/runner/beir-eval.js", "./y.js"]);
  });

  it("has no import cycle between the folders of src/, at any depth (type imports included)", async () => {
    const edges = await importEdges(resolve(REPO_ROOT, "src"));
    expect(edges.length).toBeGreaterThan(500);
    expect(folderCycles(edges)).toEqual([]);
  });

  it("finds a cycle between two folders, and one between a folder's file and a subfolder (the check can fail)", () => {
    expect(
      folderCycles([
        ["graph/retrieval-graph.ts", "tool/tool-name.ts"],
        ["tool/lookup-tool.ts", "graph/options.ts"],
        ["l1/vector-index.ts", "l1/embeddings/lsa.ts"],
        ["l1/embeddings/lsa.ts", "l1/vector-index.ts"],
        ["cli/run.ts", "graph/options.ts"],
      ]),
    ).toEqual([
      "src/: graph/ → tool/ (graph/retrieval-graph.ts imports tool/tool-name.ts; tool/lookup-tool.ts imports graph/options.ts)",
      "l1/: embeddings/ → vector-index.ts (l1/embeddings/lsa.ts imports l1/vector-index.ts; l1/vector-index.ts imports l1/embeddings/lsa.ts)",
    ]);
  });

  it("ships the build, the bin and the pages the README links to, never src/ or the tests", async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { files: string[] };
    expect([...manifest.files].sort()).toEqual([
      "CHANGELOG.md",
      "CONTRIBUTING.md",
      "DESIGN.md",
      "LICENSE",
      "README.md",
      "bench/README.md",
      "bin",
      "dist/src",
      "docs",
      "examples",
    ]);
  });
});

describe("the retrieval graph's shape", () => {
  const source = () =>
    fakeSource({
      l0: new FakeL0Searcher({
        hints: hints({ titles: ["Refunds"] }),
        candidates: [makeCandidate(REFUND_CHUNK, 3, { coverage: 1 })],
      }),
      l1: new FakeL1Searcher([makeCandidate(REFUND_CHUNK, 0.8)]),
    });

  it("names its nodes after what they do", () => {
    const graph = createRetrievalGraph({ knowledgeBase: source(), tracePath: null });
    const nodes = Object.keys(graph.getGraph().nodes).filter((name) => !name.startsWith("__"));
    expect(nodes).toEqual(["l0_hints", "l1_search", "collect_evidence", "l0_fallback", "dedupe_and_trace"]);
  });

  it("runs four steps per lookup on either branch", async () => {
    for (const l1 of [{ enabled: true }, { enabled: false }]) {
      const graph = createRetrievalGraph({ knowledgeBase: source(), tracePath: null, l1 });
      const steps: string[] = [];
      for await (const update of await graph.stream({ query: "refund window" }, { streamMode: "updates" }))
        steps.push(...Object.keys(update));
      expect(steps).toEqual([
        "l0_hints",
        "l1_search",
        l1.enabled ? "collect_evidence" : "l0_fallback",
        "dedupe_and_trace",
      ]);
    }
  });
});
