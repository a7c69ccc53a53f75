/**
 * Access control of `serve`'s default: a token line without groups on a server without
 * `--group` reads only files without an access label (never an `access: []` file or a labelled
 * one), its tool tells the model only their domains, and `*` must be asked for to read every
 * file. The scopes are resolved exactly as `serve` resolves them.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupScope } from "../../src/cli/group-scope.js";
import { scopedTokens, serverScope } from "../../src/cli/served-scopes.js";
import { parseTokenFile } from "../../src/cli/token-file.js";
import { KnowledgeBase } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { HashedWordEmbeddings } from "./hashed-embeddings.js";
import { expectToolTellsOnly, hiddenDocs, isOf, readableDocs, toolProbe, type ScopeCase } from "./leak-checks.js";
import { DOC, LEAK_DOCS, writeLeakCorpus } from "./leak-corpus.js";

const BARE = "bare-token-0123456789abcd";
const ALL = "every-token-0123456789ab";

describe("access control of serve's default scope", () => {
  const temp = createTempDirs("lookup-knowledge-leak-serve-");
  let knowledgeBase: KnowledgeBase;
  beforeAll(async () => {
    const corpusDir = join(await temp.make(), "corpus");
    await writeLeakCorpus(corpusDir, "initial");
    knowledgeBase = await KnowledgeBase.build({
      corpusDir,
      embeddings: new HashedWordEmbeddings(),
      onWarning: () => {},
    });
  });
  afterAll(() => temp.cleanup());

  const tokens = () =>
    scopedTokens(parseTokenFile(`${BARE}\n${ALL} *\n`, "tokens"), serverScope(groupScope("serve", undefined)));

  it("gives a token line without groups only unlabelled files, in every answer, trace line, description and schema", async () => {
    const [bare] = tokens();
    expect(bare.scope).toEqual({ groups: [] });
    const scope: ScopeCase = { name: "a bare token line", access: bare.scope ?? undefined, groups: [], offered: [] };
    const audience = { groups: scope.groups, phase: "initial" as const, unlabelled: "allow" as const };
    const probe = toolProbe({ knowledgeBase, scope, audience, tracePath: join(await temp.make(), "trace.jsonl") });
    expectToolTellsOnly(probe.tool, scope, "initial", "allow");
    // `access: []` files and labelled ones are hidden from it.
    expect(hiddenDocs(audience)).toContainEqual(DOC.hrSalary);
    expect(hiddenDocs(audience).some((doc) => doc.access !== null && doc.access.length === 0)).toBe(true);
    for (const doc of LEAK_DOCS) {
      const answer = await probe.lookup({ query: `${doc.title} ${doc.keywords.join(" ")}`, limit: 20 });
      const readable = readableDocs(audience).includes(doc);
      expect(answer.sources.some((source) => isOf(source, doc))).toBe(readable);
    }
    await probe.finish();
  });

  it("reads every file only for a line that asks with *", async () => {
    const [, all] = tokens();
    expect(all.scope).toBeNull();
    const scope: ScopeCase = { name: "a * token line", groups: null, offered: null };
    const audience = { groups: null, phase: "initial" as const, unlabelled: "allow" as const };
    const probe = toolProbe({ knowledgeBase, scope, audience, tracePath: join(await temp.make(), "trace.jsonl") });
    const answer = await probe.lookup({ query: `${DOC.hrSalary.title} ${DOC.hrSalary.keywords.join(" ")}` });
    expect(answer.sources.some((source) => isOf(source, DOC.hrSalary))).toBe(true);
    await probe.finish();
  });
});
