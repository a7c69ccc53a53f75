/**
 * The access leak scenarios, the same for every L1: one corpus with files for several groups and
 * overlapping names, looked up under each scope through the tool, the graph and the retriever,
 * with adversarial queries, forced domains, a wide limit, L1 empty, disabled or failing, the
 * `unlabelled: "deny"` policy, failing scope functions, and an update that changes `access`.
 */
import type { VectorStoreL1Option } from "../../src/index.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  KnowledgeBase,
  LookupKnowledgeError,
  type AccessOption,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, readJsonl } from "../integration/helpers/integration-fixtures.js";
import { HashedWordEmbeddings, QUERY_EMBEDDING_FAILURE } from "./hashed-embeddings.js";
import {
  expectNoCanary,
  expectToolTellsOnly,
  graphProbe,
  groupsFromConfig,
  isOf,
  offeredEnum,
  readableDocs,
  retrieverProbe,
  SCOPES,
  toolProbe,
  UNSCOPED,
  type Audience,
  type ProbeOptions,
  type ScopeCase,
} from "./leak-checks.js";
import {
  ATTACKED_DOCS,
  attackQueries,
  DECOY_QUERY,
  DOC,
  KITCHEN_SINK_QUERY,
  LEAK_DOCS,
  leakDocuments,
  mayRead,
  writeLeakCorpus,
  type AttackQuery,
  type CorpusPhase,
  type LeakDoc,
  type Unlabelled,
} from "./leak-corpus.js";

/** Where L1 lives for one run of the suite. */
export interface L1Backend {
  name: string;
  /**
   * Opens the backend: the `vectorStore` option of a build or load in `namespace` (undefined:
   * the in-process HNSW graph), and what closes it at the end.
   */
  open(): Promise<{ vectorStore(namespace: string): VectorStoreL1Option | undefined; close(): Promise<void> }>;
  /**
   * Where the knowledge base comes from: the corpus folder, or the same files as LangChain
   * documents whose groups are metadata (`fromDocuments`, and `syncDocuments` for the update).
   * @default "folder"
   */
  source?: "folder" | "documents";
}

/** Attack queries whose answer must hold the target when the scope may read it. */
const FINDS_TARGET = new Set(["title", "keywords", "entities", "aliases", "heading", "body"]);
const kindOf = (attack: AttackQuery) => attack.label.slice(attack.target.key.length + 1);

/** Every attack query aimed at the labelled files. */
const ATTACKS = ATTACKED_DOCS.flatMap(attackQueries);
/** The title queries only: the subset the costlier variants run. */
const TITLE_ATTACKS = ATTACKS.filter((attack) => kindOf(attack) === "title");

/** Checks that a readable target is found (first, for its title) and a hidden one is absent. */
function expectTarget(answer: { sources: string[] }, attack: AttackQuery, audience: Audience): void {
  const readable = mayRead(attack.target, audience.groups, audience.phase, audience.unlabelled);
  if (!readable) {
    expect(
      answer.sources.filter((source) => isOf(source, attack.target)),
      attack.label,
    ).toEqual([]);
  } else if (kindOf(attack) === "title") {
    expect(answer.sources[0], attack.label).toSatisfy((source: string) => isOf(source, attack.target));
  } else if (FINDS_TARGET.has(kindOf(attack))) {
    expect(
      answer.sources.some((source) => isOf(source, attack.target)),
      attack.label,
    ).toBe(true);
  }
}

/** The files of the readable documents among `sources`, for positive checks. */
const filesOf = (sources: string[]) => [...new Set(sources.map((source) => source.split("#")[0]))].sort();
const pathsOf = (docs: readonly LeakDoc[]) => docs.map((doc) => doc.path).sort();

/** Defines the leak suite for one L1 backend. */
export function describeLeakSuite(backend: L1Backend): void {
  describe(`access control with L1 in ${backend.name}`, () => {
    const temp = createTempDirs("lookup-knowledge-leak-");
    let corpusDir: string;
    let embeddings: HashedWordEmbeddings;
    let stores: Awaited<ReturnType<L1Backend["open"]>>;
    let kb: KnowledgeBase;
    let traces = 0;

    const fromDocuments = backend.source === "documents";
    const build = (namespace: string, unlabelled?: Unlabelled) => {
      const options = {
        embeddings,
        onWarning: () => {},
        ...(unlabelled ? { unlabelled } : {}),
        ...(stores.vectorStore(namespace) ? { vectorStore: stores.vectorStore(namespace) } : {}),
      };
      return fromDocuments
        ? KnowledgeBase.fromDocuments(leakDocuments("initial"), options)
        : KnowledgeBase.build({ corpusDir, ...options });
    };
    const tracePath = async () => join(await temp.make(), `trace-${++traces}.jsonl`);
    const probeOptions = async (
      knowledgeBase: KnowledgeBase,
      scope: ScopeCase,
      phase: CorpusPhase = "initial",
      unlabelled: Unlabelled = "allow",
      retrieval: ProbeOptions["retrieval"] = {},
    ): Promise<ProbeOptions> => ({
      knowledgeBase,
      scope,
      audience: { groups: scope.groups, phase, unlabelled },
      tracePath: await tracePath(),
      retrieval,
    });

    /** Knowledge bases of only the files a scope reads, by the files' paths: what a scoped lookup must be indistinguishable from. */
    const references = new Map<string, Promise<KnowledgeBase>>();
    const referenceFor = (docs: readonly LeakDoc[]): Promise<KnowledgeBase> => {
      const key = pathsOf(docs).join("\u0000");
      let reference = references.get(key);
      if (reference === undefined) {
        reference = (async () => {
          const dir = join(await temp.make(), "corpus");
          await writeLeakCorpus(dir, "initial", docs);
          return KnowledgeBase.build({ corpusDir: dir, embeddings, onWarning: () => {} });
        })();
        references.set(key, reference);
      }
      return reference;
    };

    beforeAll(async () => {
      corpusDir = join(await temp.make(), "corpus");
      await writeLeakCorpus(corpusDir, "initial");
      embeddings = new HashedWordEmbeddings();
      stores = await backend.open();
      kb = await build("leak");
    });
    afterAll(async () => {
      await stores?.close();
      await temp.cleanup();
    });

    describe.each(SCOPES)("for $name", (scope) => {
      const audience: Audience = { groups: scope.groups, phase: "initial", unlabelled: "allow" };

      it("tells the model only the domains the scope may be offered, in the description and the schema", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        expectToolTellsOnly(probe.tool, scope, "initial", "allow");
        await probe.finish();
      });

      it("answers the decoy query, which a hidden file's title, keywords, entities, aliases and domain all match, from the file the scope reads", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        const { sources, result } = await probe.lookup({ query: DECOY_QUERY });
        const expected = mayRead(DOC.hrDecoy, scope.groups, "initial") ? DOC.hrDecoy : DOC.publicReimbursement;
        expect(result?.primary?.source).toSatisfy((source: string) => isOf(source, expected));
        expect(sources.length).toBeGreaterThan(0);
        await probe.finish();
      });

      it("leaks nothing to queries made of hidden titles, keywords, entities, aliases, domains, headings and body words, and finds the readable files", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        for (const attack of ATTACKS) expectTarget(await probe.lookup({ query: attack.query }), attack, audience);
        await probe.finish();
      });

      it("leaks nothing when a domain only hidden files hold is forced, and keeps a readable forced domain to its own files", async () => {
        const tool = toolProbe(await probeOptions(kb, scope));
        const graph = graphProbe(await probeOptions(kb, scope));
        const offered = offeredEnum(tool.tool);
        for (const domain of new Set(LEAK_DOCS.flatMap((doc) => (doc.domain ? [doc.domain] : [])))) {
          const inDomain = LEAK_DOCS.filter((doc) => doc.domain === domain);
          const query = `${inDomain.map((doc) => doc.title).join(" ")} ${domain}`;
          const readable = inDomain.filter((doc) => mayRead(doc, scope.groups, "initial"));
          const viaTool = await tool.attempt({ query, domain });
          if (offered !== null && !offered.includes(domain)) {
            // The schema refuses a domain it does not offer, naming only the offered ones.
            expect(viaTool).toBeInstanceOf(Error);
          } else {
            expect(viaTool).not.toBeInstanceOf(Error);
            if (!(viaTool instanceof Error)) expect(filesOf(viaTool.sources)).toEqual(pathsOf(readable));
          }
          const viaGraph = await graph.lookup({ query, domain, limit: 20 });
          expect(filesOf(viaGraph.sources), domain).toEqual(pathsOf(readable));
        }
        await tool.finish();
        await graph.finish();
      });

      it("returns every readable file and nothing else with limit 20 on a query naming every file", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        const { sources } = await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 });
        expect(filesOf(sources)).toEqual(pathsOf(readableDocs(audience)));
        await probe.finish();
      });

      it.each([
        ["L1 finds nothing above minScore 0.999", { minScore: 0.999 }, "empty", "l1_empty"],
        ["L1 is disabled", { enabled: false }, "disabled", "l1_disabled"],
      ] as const)("leaks nothing when %s and L0 answers alone", async (_label, l1, status, reason) => {
        const probe = toolProbe(await probeOptions(kb, scope, "initial", "allow", { l1 }));
        for (const attack of TITLE_ATTACKS) {
          const answer = await probe.lookup({ query: attack.query, limit: 20 });
          expect(answer.result).toMatchObject({ l1Status: status, fallbackReason: reason });
          expectTarget(answer, attack, audience);
        }
        const everything = await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 });
        expect(everything.result).toMatchObject({ l1Status: status, fallbackReason: reason });
        expect(filesOf(everything.sources)).toEqual(pathsOf(readableDocs(audience)));
        const decoy = await probe.lookup({ query: DECOY_QUERY });
        if (!mayRead(DOC.hrDecoy, scope.groups, "initial"))
          expect(decoy.result?.primary?.source).toSatisfy((source: string) => isOf(source, DOC.publicReimbursement));
        await probe.finish();
      });

      it("leaks nothing when the query embedding fails, answering from L0 with the failure in the trace", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        embeddings.failQueries = true;
        try {
          for (const attack of TITLE_ATTACKS) {
            const answer = await probe.lookup({ query: attack.query });
            expect(answer.result).toMatchObject({ l1Status: "error", fallbackReason: "l1_error" });
            expectTarget(answer, attack, audience);
          }
          const decoy = await probe.lookup({ query: DECOY_QUERY });
          if (!mayRead(DOC.hrDecoy, scope.groups, "initial"))
            expect(decoy.result?.primary?.source).toSatisfy((source: string) => isOf(source, DOC.publicReimbursement));
          await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 });
        } finally {
          embeddings.failQueries = false;
        }
        const lines = await probe.finish();
        expect(lines.map((line) => line.retrieval_details?.l1.error)).toEqual(
          lines.map(() => expect.stringContaining(QUERY_EMBEDDING_FAILURE)),
        );
      });

      it("returns only readable documents from the retriever, in page content and metadata", async () => {
        const probe = retrieverProbe(await probeOptions(kb, scope));
        for (const attack of [...TITLE_ATTACKS, ...ATTACKS.filter((a) => kindOf(a) === "keywords")])
          expectTarget(await probe.lookup({ query: attack.query, limit: 20 }), attack, audience);
        expect((await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources.length).toBe(
          readableDocs(audience).length,
        );
        for (const doc of [DOC.hrSalary, DOC.nobodyKeys]) {
          // A fixed scope refuses a domain it cannot read as it refuses a missing one (see the blank-label suite); a scope function's
          // retriever takes any domain of the base, and a caller who cannot read it finds nothing.
          if (
            !mayRead(doc, scope.groups, "initial") &&
            scope.access !== undefined &&
            typeof scope.access !== "function"
          ) {
            expect(() => kb.asRetriever({ access: scope.access, domain: doc.domain, tracePath: null })).toThrow(
              `option domain ${JSON.stringify(doc.domain)} is not a domain of the knowledge base`,
            );
            continue;
          }
          const { sources } = await probe.lookup({ query: doc.title, domain: doc.domain, limit: 20 });
          expect(filesOf(sources)).toEqual(mayRead(doc, scope.groups, "initial") ? [doc.path] : []);
        }
        await probe.finish();
      });

      it("returns only readable evidence and state from the retrieval graph, whatever scope its input claims", async () => {
        const claimed = { scope: { groups: ["hr", "finance"], digest: "0000000000000000" } };
        const probe = graphProbe(await probeOptions(kb, scope), claimed);
        for (const attack of [...TITLE_ATTACKS, ...ATTACKS.filter((a) => kindOf(a) === "aliases")])
          expectTarget(await probe.lookup({ query: attack.query, limit: 20 }), attack, audience);
        await probe.finish();
      });

      it("finds the same candidates, counts, hints and domain filter as a knowledge base of only the files the scope reads", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        const reference = createRetrievalGraph({
          knowledgeBase: await referenceFor(readableDocs(audience)),
          tracePath: null,
        });
        // Scores may differ (BM25's IDF counts every file, see docs/access-control.md); what was found, and how much, may not.
        const observable = (result: LookupResult) => ({
          sources: result.evidence.map((block) => block.source).sort(),
          candidateCount: result.candidateCount,
          evidenceCount: result.evidenceCount,
          hints: result.hints,
          domainFilter: result.domainFilter,
          l1Status: result.l1Status,
          retrievalLayer: result.retrievalLayer,
        });
        for (const query of [DECOY_QUERY, KITCHEN_SINK_QUERY, ...ATTACKS.map((attack) => attack.query)]) {
          const scoped = await probe.lookup({ query, limit: 20 });
          const { result } = await reference.invoke({ query, limit: 20 });
          expect(observable(scoped.result!), query).toEqual(observable(result!));
        }
        await probe.finish();
      });

      it("ignores access fields the model adds to the tool's arguments", async () => {
        const probe = toolProbe(await probeOptions(kb, scope));
        const widened = { access: { groups: ["hr", "finance"] }, groups: ["hr", "finance"], scope: { groups: ["hr"] } };
        for (const attack of TITLE_ATTACKS) {
          const outcome = await probe.attempt({ query: attack.query, ...widened });
          if (!(outcome instanceof Error)) expectTarget(outcome, attack, audience);
        }
        await probe.finish();
      });
    });

    it("keeps concurrent callers of one scope-function tool and one retriever apart", async () => {
      const path = await tracePath();
      const tool = createLookupKnowledgeTool({ knowledgeBase: kb, access: groupsFromConfig, tracePath: path });
      const retriever = kb.asRetriever({ access: groupsFromConfig, tracePath: path, limit: 20 });
      const callers = [["hr"], [], ["finance"], ["hr", "finance"]];
      const calls = Array.from({ length: 24 }, (_, i) => ({
        groups: callers[i % callers.length],
        query: TITLE_ATTACKS[i % TITLE_ATTACKS.length].query,
        viaTool: i % 3 !== 2,
      }));
      const answers = await Promise.all(
        calls.map(async ({ groups, query, viaTool }, i) => {
          const configurable = { groups };
          if (viaTool) {
            const message = await tool.invoke(
              { type: "tool_call", id: `concurrent-${i}`, name: tool.name, args: { query, limit: 20 } },
              { configurable },
            );
            return {
              groups,
              query,
              text: `${String(message.content)} ${JSON.stringify(message.artifact)}`,
              sources: (message.artifact as LookupResult).evidence.map((block) => block.source),
            };
          }
          const docs = await retriever.invoke(query, { configurable });
          return { groups, query, text: JSON.stringify(docs), sources: docs.map((doc) => doc.metadata.source) };
        }),
      );
      for (const { groups, query, text, sources } of answers) {
        const audience: Audience = { groups, phase: "initial", unlabelled: "allow" };
        expectNoCanary(`the answer to ${JSON.stringify(groups)}`, text, audience, [query]);
        const attack = TITLE_ATTACKS.find((candidate) => candidate.query === query)!;
        expectTarget({ sources }, attack, audience);
      }
      await Promise.all([tool.close(), retriever.close()]);
      const lines = (await readJsonl(path)) as ToolInvocationRecord[];
      expect(lines).toHaveLength(calls.length);
      for (const line of lines) {
        const audience: Audience = { groups: line.access!.groups, phase: "initial", unlabelled: "allow" };
        expectNoCanary("a concurrent trace line", JSON.stringify(line), audience, [line.input.query]);
      }
      expect(lines.map((line) => line.access!.groups.join(",")).sort()).toEqual(
        calls.map(({ groups }) => [...groups].sort().join(",")).sort(),
      );
    });

    it("reads every file, the one labelled for nobody included, without an access option", async () => {
      const tool = toolProbe(await probeOptions(kb, UNSCOPED));
      expectToolTellsOnly(tool.tool, UNSCOPED, "initial", "allow");
      for (const attack of TITLE_ATTACKS)
        expectTarget(await tool.lookup({ query: attack.query }), attack, {
          groups: null,
          phase: "initial",
          unlabelled: "allow",
        });
      expect(filesOf((await tool.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources)).toEqual(
        pathsOf(LEAK_DOCS),
      );
      const retriever = retrieverProbe(await probeOptions(kb, UNSCOPED));
      expect((await retriever.lookup({ query: DOC.nobodyKeys.title })).sources[0]).toSatisfy((source: string) =>
        isOf(source, DOC.nobodyKeys),
      );
      const graph = graphProbe(await probeOptions(kb, UNSCOPED));
      expect((await graph.lookup({ query: DOC.hrSalary.title })).sources[0]).toSatisfy((source: string) =>
        isOf(source, DOC.hrSalary),
      );
      for (const probe of [tool, retriever, graph])
        expect((await probe.finish()).every((line) => line.access === null)).toBe(true);
    });

    describe('with unlabelled: "deny"', () => {
      let denying: KnowledgeBase;
      let loaded: KnowledgeBase;
      let reloadedAllow: KnowledgeBase;

      beforeAll(async () => {
        denying = await build("leak_deny", "deny");
        const saved = await temp.make();
        await kb.save(saved);
        loaded = await KnowledgeBase.load(saved, {
          embeddings,
          unlabelled: "deny",
          ...(stores.vectorStore("leak") ? { vectorStore: stores.vectorStore("leak") } : {}),
        });
        const savedDeny = await temp.make();
        await denying.save(savedDeny);
        reloadedAllow = await KnowledgeBase.load(savedDeny, {
          embeddings,
          unlabelled: "allow",
          ...(stores.vectorStore("leak_deny") ? { vectorStore: stores.vectorStore("leak_deny") } : {}),
        });
      });

      const bases = () =>
        [
          ["built with it", denying],
          ["loaded with it", loaded],
          ["built with it and loaded with allow, which cannot widen it", reloadedAllow],
        ] as const;

      it("shows an anonymous caller nothing at all, public files included", async () => {
        for (const [label, knowledgeBase] of bases()) {
          const tool = toolProbe(await probeOptions(knowledgeBase, SCOPES[0], "initial", "deny"));
          expectToolTellsOnly(tool.tool, SCOPES[0], "initial", "deny");
          for (const query of [DECOY_QUERY, KITCHEN_SINK_QUERY, ...LEAK_DOCS.map((doc) => doc.title)]) {
            const { sources, text } = await tool.lookup({ query, limit: 20 });
            expect(sources, `${label}: ${query}`).toEqual([]);
            expect(text).toMatch(/^NO EVIDENCE/);
          }
          await tool.finish();
          const retriever = retrieverProbe(await probeOptions(knowledgeBase, SCOPES[0], "initial", "deny"));
          expect((await retriever.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources, label).toEqual([]);
          await retriever.finish();
        }
      });

      it("shows hr its own files and none of the unlabelled ones", async () => {
        const hr = SCOPES[3];
        for (const [label, knowledgeBase] of bases()) {
          const probe = toolProbe(await probeOptions(knowledgeBase, hr, "initial", "deny"));
          expect(filesOf((await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources), label).toEqual(
            pathsOf(LEAK_DOCS.filter((doc) => doc.access?.includes("hr"))),
          );
          for (const attack of TITLE_ATTACKS)
            expectTarget(await probe.lookup({ query: attack.query }), attack, {
              groups: ["hr"],
              phase: "initial",
              unlabelled: "deny",
            });
          await probe.finish();
        }
      });

      it("still reads every file without an access option", async () => {
        const probe = toolProbe(await probeOptions(denying, UNSCOPED, "initial", "deny"));
        expect(filesOf((await probe.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources)).toEqual(
          pathsOf(LEAK_DOCS),
        );
        await probe.finish();
      });
    });

    describe("a scope function that fails", () => {
      const SECRET = "zqscopesecret";
      const hangs: AccessOption = () => new Promise(() => {});
      const failures: [string, AccessOption, Record<string, unknown> | undefined][] = [
        [
          "throws",
          () => {
            throw new Error(`${SECRET}: token expired\nretry later`);
          },
          { groups: ["hr"] },
        ],
        ["rejects", async () => Promise.reject(new Error(SECRET)), { groups: ["hr"] }],
        ["hangs past accessTimeoutMs", hangs, { groups: ["hr"] }],
        ["returns { groups: 'hr' }", (() => ({ groups: "hr" })) as unknown as AccessOption, undefined],
        ["returns null", (() => null) as unknown as AccessOption, undefined],
        ["returns { groups: [1] }", (() => ({ groups: [1] })) as unknown as AccessOption, undefined],
        ["returns undefined", (() => undefined) as unknown as AccessOption, undefined],
        ["reads a configurable the call does not have", groupsFromConfig, undefined],
      ];

      /** Checks one denial: the code, a one-line message without the secret, no answer. */
      function expectDenied(outcome: unknown): void {
        expect(outcome).toBeInstanceOf(LookupKnowledgeError);
        const error = outcome as LookupKnowledgeError;
        expect(error.code).toBe("ACCESS_DENIED");
        expect(error.message).not.toMatch(/[\r\n]/);
        expect(error.message).not.toContain(SECRET);
        expectNoCanary("the denial", error.message, { groups: [], phase: "initial", unlabelled: "deny" });
      }

      /** Checks that each of `calls` denials wrote exactly one error line, without the secret or any evidence. */
      async function expectDenialLines(path: string, calls: number, toolName: string): Promise<void> {
        const lines = (await readJsonl(path)) as ToolInvocationRecord[];
        expect(lines).toHaveLength(calls);
        for (const line of lines) {
          expect(line).toMatchObject({
            status: "error",
            error_type: "ACCESS_DENIED",
            access: null,
            retrieval_details: null,
            tool_name: toolName,
          });
          expect(JSON.stringify(line)).not.toContain(SECRET);
          expectNoCanary(
            "the denial's trace line",
            JSON.stringify(line),
            { groups: [], phase: "initial", unlabelled: "deny" },
            [line.input.query],
          );
        }
      }

      it.each(failures)(
        "denies every lookup through the tool when it %s, writing one error line per call",
        async (_label, access, configurable) => {
          const path = await tracePath();
          const probe = toolProbe({
            ...(await probeOptions(kb, { name: "failing", access, configurable, groups: [], offered: [] })),
            tracePath: path,
            retrieval: { accessTimeoutMs: 50 },
          });
          for (const query of [DOC.hrSalary.title, KITCHEN_SINK_QUERY]) {
            const started = Date.now();
            const outcome = await probe.attempt({ query, limit: 20 });
            expectDenied(outcome);
            expect(Date.now() - started).toBeLessThan(2000);
          }
          await probe.tool.close();
          await expectDenialLines(path, 2, "lookup_knowledge");
        },
      );

      it.each(failures.filter(([label]) => ["throws", "hangs past accessTimeoutMs", "returns null"].includes(label)))(
        "denies the graph and the retriever too when it %s, one error line each",
        async (_label, access, configurable) => {
          const scope: ScopeCase = { name: "failing", access, configurable, groups: [], offered: [] };
          const graphTrace = await tracePath();
          const graph = graphProbe({
            ...(await probeOptions(kb, scope, "initial", "allow", { accessTimeoutMs: 50 })),
            tracePath: graphTrace,
          });
          expectDenied(await graph.attempt({ query: DOC.hrSalary.title }));
          await expectDenialLines(graphTrace, 1, "lookup_knowledge");
          const retrieverTrace = await tracePath();
          const retriever = retrieverProbe({
            ...(await probeOptions(kb, scope, "initial", "allow", { accessTimeoutMs: 50 })),
            tracePath: retrieverTrace,
          });
          expectDenied(await retriever.attempt({ query: DOC.hrSalary.title }));
          await expectDenialLines(retrieverTrace, 1, "lookup_knowledge_retriever");
        },
      );
    });

    // Last: the update changes the indexes of `kb` in place.
    it("follows an update that changes files' access, before and after the save that drops the old rows", async () => {
      await writeLeakCorpus(corpusDir, "updated");
      const { knowledgeBase, changes } = fromDocuments
        ? await kb.syncDocuments(leakDocuments("updated"), { cleanup: "full" })
        : await kb.update({ corpusDir });
      expect(changes).toBeDefined();
      const flipped = [DOC.closingVpn, DOC.openingLeave].flatMap(attackQueries);
      for (const saved of [false, true]) {
        if (saved) await knowledgeBase.save(await temp.make());
        for (const scope of [SCOPES[0], SCOPES[1], SCOPES[2], SCOPES[3]]) {
          const audience: Audience = { groups: scope.groups, phase: "updated", unlabelled: "allow" };
          const tool = toolProbe(await probeOptions(knowledgeBase, scope, "updated"));
          expectToolTellsOnly(tool.tool, scope, "updated", "allow");
          for (const attack of [...flipped, ...TITLE_ATTACKS])
            expectTarget(await tool.lookup({ query: attack.query }), attack, audience);
          expect(filesOf((await tool.lookup({ query: KITCHEN_SINK_QUERY, limit: 20 })).sources)).toEqual(
            pathsOf(readableDocs(audience)),
          );
          // The file opened to everyone is found by L1 too: its vectors carry the new label.
          const opened = await tool.lookup({ query: DOC.openingLeave.title });
          expect(opened.result?.primary).toMatchObject({
            source: expect.stringMatching(/^leave\//),
            retrievalLayer: "L0+L1",
          });
          await tool.finish();
          const graph = graphProbe(await probeOptions(knowledgeBase, scope, "updated"));
          for (const attack of flipped)
            expectTarget(await graph.lookup({ query: attack.query, limit: 20 }), attack, audience);
          await graph.finish();
        }
      }
      kb = knowledgeBase;
    });
  });
}
