/**
 * What the leak suite checks on every lookup, and the probes that run lookups through the tool,
 * the retrieval graph and the retriever with those checks built in: no canary of a file the
 * scope may not read in any text, artifact, state, document, trace line or error message, and
 * no hidden source, title, hint phrase or domain in their structured fields.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { expect } from "vitest";
import { z } from "zod";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  type AccessOption,
  type KnowledgeBase,
  type KnowledgeBaseRetriever,
  type LookupKnowledgeToolOptions,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createLookupKnowledgeSchema } from "../../src/graph/lookup-schema.js";
import { describeLookupKnowledge } from "../../src/tool/tool-description.js";
import { readJsonl } from "../integration/helpers/integration-fixtures.js";
import { LEAK_DOCS, mayRead, type CorpusPhase, type LeakDoc, type Unlabelled } from "./leak-corpus.js";

/** A scope a lookup runs under, and how the suite hands it over. */
export interface ScopeCase {
  name: string;
  /** The `access` option; undefined: unscoped. */
  access?: AccessOption;
  /** The `configurable` of each call (what a scope function reads). */
  configurable?: Record<string, unknown>;
  /** The groups the lookup runs under, trimmed, unique and sorted; null: unscoped. */
  groups: string[] | null;
  /** The groups whose domains the tool's description and schema may name: a function's are those every scope reads ([]). */
  offered: string[] | null;
}

/** A scope function, as a server gives it: the caller's groups from trusted `configurable`. */
export const groupsFromConfig: AccessOption = async (config: RunnableConfig) => ({
  groups: config.configurable?.groups as string[],
});

/** The scopes every backend is checked under. */
export const SCOPES: readonly ScopeCase[] = [
  { name: "an anonymous caller (groups [])", access: { groups: [] }, groups: [], offered: [] },
  { name: "finance", access: { groups: ["finance"] }, groups: ["finance"], offered: ["finance"] },
  { name: "hr", access: { groups: ["hr"] }, groups: ["hr"], offered: ["hr"] },
  {
    name: "hr through a scope function reading config.configurable",
    access: groupsFromConfig,
    configurable: { groups: ["hr"], user: "u-1" },
    groups: ["hr"],
    offered: [],
  },
  {
    name: "groups that match the labels only after trimming or in another case ([' finance ', 'HR']) through a scope function",
    access: groupsFromConfig,
    configurable: { groups: [" finance ", "HR"] },
    groups: ["HR", "finance"],
    offered: [],
  },
];

/** The unscoped case: no `access` option at all. */
export const UNSCOPED: ScopeCase = { name: "no access option", groups: null, offered: null };

/** Who reads what: a scope's groups against one state of the corpus and one unlabelled policy. */
export interface Audience {
  groups: readonly string[] | null;
  phase: CorpusPhase;
  unlabelled: Unlabelled;
}

export const readableDocs = (audience: Audience): LeakDoc[] =>
  LEAK_DOCS.filter((doc) => mayRead(doc, audience.groups, audience.phase, audience.unlabelled));
export const hiddenDocs = (audience: Audience): LeakDoc[] =>
  LEAK_DOCS.filter((doc) => !mayRead(doc, audience.groups, audience.phase, audience.unlabelled));
/** The domains of the files the audience reads, sorted as the knowledge base lists them. */
export const readableDomains = (audience: Audience): string[] =>
  [...new Set(readableDocs(audience).flatMap((doc) => (doc.domain ? [doc.domain] : [])))].sort();
/** True when `source` is a section of `doc`. */
export const isOf = (source: string | undefined, doc: LeakDoc): boolean => source?.startsWith(`${doc.path}#`) ?? false;
const fileOf = (source: string) => source.split("#")[0];

/** The trace and artifact `access` of a lookup under `groups`. */
function expectedScope(groups: readonly string[] | null) {
  if (groups === null) return null;
  return {
    groups: [...groups],
    digest: createHash("sha256").update(JSON.stringify(groups)).digest("hex").slice(0, 16),
  };
}

/**
 * The canaries of `hidden` files found in `text` (case-insensitive), once what the caller sent
 * (`echoed`: the query, the forced domain) is cut out: a caller may see their own words again.
 */
export function canariesIn(
  text: string,
  hidden: readonly LeakDoc[],
  echoed: readonly (string | null | undefined)[] = [],
): string[] {
  let haystack = text.toLowerCase();
  for (const value of echoed) if (value) haystack = haystack.split(value.toLowerCase()).join("\u0000");
  return hidden.flatMap((doc) =>
    doc.canaries.filter((canary) => haystack.includes(canary)).map((canary) => `${doc.key}: ${canary}`),
  );
}

/** Fails with every canary of a hidden file that `text` holds. */
export function expectNoCanary(
  where: string,
  text: string,
  audience: Audience,
  echoed: readonly (string | null | undefined)[] = [],
): void {
  expect(canariesIn(text, hiddenDocs(audience), echoed), `${where} leaks a hidden file`).toEqual([]);
}

/** The structured parts of an answer that name files, phrases and domains. */
interface Surface {
  sources: string[];
  titles: (string | null | undefined)[];
  phrases: string[];
  domains: (string | null | undefined)[];
  domainFilter: string | null;
}

function surfaceOfResult(result: LookupResult): Surface {
  const blocks = [...result.evidence, ...(result.primary ? [result.primary] : []), ...result.supplements];
  return {
    sources: blocks.map((block) => block.source),
    titles: [...blocks.map((block) => block.title), ...result.hints.titles],
    phrases: [...result.hints.keywords, ...result.hints.entities],
    domains: [
      ...blocks.map((block) => block.domain),
      ...result.hints.domains,
      ...(result.hints.domainEvidence ?? []).map((entry) => entry.domain),
    ],
    domainFilter: result.domainFilter,
  };
}

function surfaceOfTrace(line: ToolInvocationRecord): Surface {
  const details = line.retrieval_details;
  if (details === null) return { sources: [], titles: [], phrases: [], domains: [], domainFilter: null };
  return {
    sources: details.evidence.map((block) => block.source),
    titles: [...details.evidence.map((block) => block.title), ...details.l0.matched_titles],
    phrases: [...details.l0.matched_keywords, ...details.l0.entities],
    domains: [...details.l0.domains, ...details.l0.domain_evidence.map((entry) => entry.domain)],
    domainFilter: details.l1.domain_filter,
  };
}

/** Fails when a structured field names a file, title, phrase or domain only hidden files have. */
function expectOnlyReadable(
  where: string,
  surface: Surface,
  audience: Audience,
  forced: string | null | undefined,
): void {
  const readable = readableDocs(audience);
  const files = new Set(readable.map((doc) => doc.path));
  const titles = new Set(readable.map((doc) => doc.title));
  const phrases = new Set(
    readable.flatMap((doc) =>
      [doc.title, ...doc.keywords, ...doc.entities, ...doc.aliases, ...(doc.domain ? [doc.domain] : [])].map((phrase) =>
        phrase.toLowerCase(),
      ),
    ),
  );
  const domains = new Set(readableDomains(audience));
  expect(
    surface.sources.filter((source) => !files.has(fileOf(source))),
    `${where}: hidden sources`,
  ).toEqual([]);
  expect(
    surface.titles.filter((title) => title != null && !titles.has(title)),
    `${where}: hidden titles`,
  ).toEqual([]);
  expect(
    surface.phrases.filter((phrase) => !phrases.has(phrase.toLowerCase())),
    `${where}: hidden hint phrases`,
  ).toEqual([]);
  expect(
    surface.domains.filter((domain) => domain != null && !domains.has(domain)),
    `${where}: hidden domains`,
  ).toEqual([]);
  const own = forced?.trim().toLowerCase() || null;
  if (surface.domainFilter !== null && surface.domainFilter !== own)
    expect(domains.has(surface.domainFilter), `${where}: domain filter ${surface.domainFilter}`).toBe(true);
}

/** One lookup's input, as the model (tool) or the caller (graph, retriever) gives it. */
export interface LookupArgs {
  query: string;
  domain?: string;
  limit?: number;
}

/** What one lookup returned. */
export interface Answer {
  /** Sources of the evidence, in rank order. */
  sources: string[];
  /** The artifact (tool) or the state's result (graph); null for the retriever. */
  result: LookupResult | null;
  /** The tool's text; empty for the graph and the retriever. */
  text: string;
}

/** Runs lookups one way (tool, graph, retriever) and checks each for leaks. */
export interface Probe {
  /** Runs one lookup, checks it, and returns it; an error is checked for leaks and thrown. */
  lookup(args: LookupArgs & Record<string, unknown>): Promise<Answer>;
  /** {@link lookup}, returning what it throws instead (after checking it leaks nothing). */
  attempt(args: LookupArgs & Record<string, unknown>): Promise<Answer | Error>;
  /** Checks the trace (one success line per answer, none leaking, each with the scope applied), closes, and returns its lines. */
  finish(): Promise<ToolInvocationRecord[]>;
}

interface ProbeParts {
  scope: ScopeCase;
  audience: Audience;
  tracePath: string;
  /** Runs one lookup: the answer, and every text of it a caller gets (for the canary search). */
  run(
    args: LookupArgs & Record<string, unknown>,
  ): Promise<{ answer: Answer; texts: [string, string][]; surfaces: [string, Surface][] }>;
  close(): Promise<void>;
}

function probeOf({ scope, audience, tracePath, run, close }: ProbeParts): Probe {
  let answers = 0;
  async function attempt(args: LookupArgs & Record<string, unknown>): Promise<Answer | Error> {
    const echoed = [args.query, args.domain];
    let outcome: Awaited<ReturnType<ProbeParts["run"]>>;
    try {
      outcome = await run(args);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      expectNoCanary(`the error of ${JSON.stringify(args)}`, `${failure.message} ${String(error)}`, audience, echoed);
      return failure;
    }
    answers += 1;
    for (const [where, text] of outcome.texts)
      expectNoCanary(`${where} of ${JSON.stringify(args)}`, text, audience, echoed);
    for (const [where, surface] of outcome.surfaces)
      expectOnlyReadable(`${where} of ${JSON.stringify(args)}`, surface, audience, args.domain);
    if (outcome.answer.result !== null)
      expect(outcome.answer.result.access ?? null).toEqual(expectedScope(scope.groups));
    return outcome.answer;
  }
  return {
    attempt,
    async lookup(args) {
      const outcome = await attempt(args);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    async finish() {
      await close();
      const lines = (existsSync(tracePath) ? await readJsonl(tracePath) : []) as ToolInvocationRecord[];
      const scopeLine = expectedScope(scope.groups);
      for (const line of lines) {
        const where = `trace line of ${JSON.stringify(line.input)}`;
        expectNoCanary(where, JSON.stringify(line), audience, [line.input.query, line.input.domain]);
        expectOnlyReadable(where, surfaceOfTrace(line), audience, line.input.domain);
        if (line.status === "success")
          expect(line.access).toEqual(
            scopeLine === null ? null : { ...scopeLine, group_count: scopeLine.groups.length },
          );
      }
      expect(lines.filter((line) => line.status === "success")).toHaveLength(answers);
      return lines;
    },
  };
}

/** Options of the probes: the base, the scope, who reads what, the trace file, and retrieval options. */
export interface ProbeOptions {
  knowledgeBase: KnowledgeBase;
  scope: ScopeCase;
  audience: Audience;
  tracePath: string;
  retrieval?: Omit<LookupKnowledgeToolOptions, "knowledgeBase" | "access" | "tracePath">;
}

/** Lookups through `createLookupKnowledgeTool`: its text and artifact are checked. */
export function toolProbe({
  knowledgeBase,
  scope,
  audience,
  tracePath,
  retrieval = {},
}: ProbeOptions): Probe & { tool: ReturnType<typeof createLookupKnowledgeTool> } {
  const tool = createLookupKnowledgeTool({
    ...retrieval,
    knowledgeBase,
    tracePath,
    ...(scope.access ? { access: scope.access } : {}),
  });
  let calls = 0;
  const probe = probeOf({
    scope,
    audience,
    tracePath,
    async run(args) {
      calls += 1;
      const message = await tool.invoke(
        { type: "tool_call", id: `call-${calls}`, name: tool.name, args },
        { configurable: scope.configurable },
      );
      const result = message.artifact as LookupResult;
      const text = String(message.content);
      return {
        answer: { sources: result.evidence.map((block) => block.source), result, text },
        texts: [
          ["the tool's text", text],
          ["the artifact", JSON.stringify(result)],
        ],
        surfaces: [["the artifact", surfaceOfResult(result)]],
      };
    },
    close: () => tool.close(),
  });
  return Object.assign(probe, { tool });
}

/** Lookups through `createRetrievalGraph(...).invoke`: the whole output state is checked. `claim` is merged into each input. */
export function graphProbe(
  { knowledgeBase, scope, audience, tracePath, retrieval = {} }: ProbeOptions,
  claim: Record<string, unknown> = {},
): Probe {
  const graph = createRetrievalGraph({
    ...retrieval,
    knowledgeBase,
    tracePath,
    ...(scope.access ? { access: scope.access } : {}),
  });
  return probeOf({
    scope,
    audience,
    tracePath,
    async run(args) {
      const state = await graph.invoke({ ...args, ...claim }, { configurable: scope.configurable });
      const result = state.result!;
      const candidates = [...state.l0Candidates, ...state.l1Candidates];
      const stateSurface: Surface = {
        sources: [
          ...candidates.map((candidate) => candidate.chunk.source),
          ...state.evidence.map((block) => block.source),
        ],
        titles: candidates.map((candidate) => candidate.chunk.meta.title),
        phrases: [...state.hints.keywords, ...state.hints.entities],
        domains: [...candidates.map((candidate) => candidate.chunk.meta.domain), ...state.hints.domains],
        domainFilter: state.domainFilter,
      };
      return {
        answer: { sources: result.evidence.map((block) => block.source), result, text: "" },
        texts: [["the graph's output state", JSON.stringify(state)]],
        surfaces: [
          ["the graph's result", surfaceOfResult(result)],
          ["the graph's state", stateSurface],
        ],
      };
    },
    close: () => graph.close(),
  });
}

/** Lookups through `kb.asRetriever(...)`: documents (content and metadata) are checked. One retriever per `domain` and `limit`. */
export function retrieverProbe({ knowledgeBase, scope, audience, tracePath, retrieval = {} }: ProbeOptions): Probe {
  const retrievers = new Map<string, KnowledgeBaseRetriever>();
  const retrieverFor = ({ domain, limit }: LookupArgs): KnowledgeBaseRetriever => {
    const key = `${domain ?? ""}\u0000${limit ?? ""}`;
    let retriever = retrievers.get(key);
    if (retriever === undefined) {
      retriever = knowledgeBase.asRetriever({
        ...retrieval,
        tracePath,
        ...(scope.access ? { access: scope.access } : {}),
        ...(domain !== undefined ? { domain } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      retrievers.set(key, retriever);
    }
    return retriever;
  };
  return probeOf({
    scope,
    audience,
    tracePath,
    async run(args) {
      const docs = await retrieverFor(args).invoke(args.query, { configurable: scope.configurable });
      return {
        answer: { sources: docs.map((doc) => doc.metadata.source), result: null, text: "" },
        texts: [["the retriever's documents", JSON.stringify(docs)]],
        surfaces: [
          [
            "the retriever's metadata",
            {
              sources: docs.flatMap((doc) => [doc.metadata.source, ...(doc.id ? [doc.id] : [])]),
              titles: docs.map((doc) => doc.metadata.title),
              phrases: [],
              domains: docs.map((doc) => doc.metadata.domain),
              domainFilter: docs[0]?.metadata.domainFilter ?? null,
            },
          ],
        ],
      };
    },
    close: async () => {
      await Promise.all([...retrievers.values()].map((retriever) => retriever.close()));
    },
  });
}

/** The JSON schema of a tool's input. */
export const jsonSchemaOf = (schema: unknown): Record<string, unknown> => z.toJSONSchema(schema as z.ZodType);

/**
 * Checks what the model is told before any lookup: the description and the input schema are
 * exactly those of the domains `scope` may be offered, and hold no canary of a file it cannot read.
 */
export function expectToolTellsOnly(
  tool: ReturnType<typeof createLookupKnowledgeTool>,
  scope: ScopeCase,
  phase: CorpusPhase,
  unlabelled: Unlabelled,
): void {
  const offered = readableDomains({ groups: scope.offered, phase, unlabelled });
  const schema = jsonSchemaOf(tool.schema);
  expect(tool.description).toBe(describeLookupKnowledge(offered));
  expect(schema).toEqual(jsonSchemaOf(createLookupKnowledgeSchema(20, { domains: offered })));
  const audience = { groups: scope.offered, phase, unlabelled };
  expectNoCanary("the tool's description", tool.description, audience);
  expectNoCanary("the tool's schema", JSON.stringify(schema), audience);
  expectNoCanary("the tool", JSON.stringify(tool), audience);
}

/** The domains a tool's schema offers as an enum; null when its `domain` field takes any string. */
export function offeredEnum(tool: ReturnType<typeof createLookupKnowledgeTool>): string[] | null {
  const domain = (jsonSchemaOf(tool.schema).properties as Record<string, { enum?: string[] }>).domain;
  return domain.enum ?? null;
}
