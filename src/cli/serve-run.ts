import { readFile } from "node:fs/promises";
import { LookupKnowledgeError, errorDetail } from "../errors.js";
import { followKnowledgeBase, type FollowedKnowledgeBase } from "../knowledge-base/followed-knowledge-base.js";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";
import { createCallLane } from "../mcp/call-lane.js";
import { DEFAULT_STOP_GRACE_MS, startMcpHttpEndpoint } from "../mcp/http-endpoint.js";
import { LOOPBACK_HOSTS, normalizeOrigin } from "../mcp/request-origin.js";
import { stringValue, usageError, type CliIO, type ParsedCommand } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR } from "./defaults.js";
import { groupScope } from "./group-scope.js";
import { serveLimits } from "./serve-limit-flags.js";
import { createServedTools, type ServedTools } from "./served-tools.js";
import { scopedTokens, scopeSummary, serverScope } from "./served-scopes.js";
import { buildAndSave, indexOnce } from "./index-build.js";
import { watchCorpus } from "./index-watch.js";
import { openCliVectorStore } from "./pgvector-flags.js";
import { MCP_TOKEN_ENV } from "./token-file.js";
import { stopRequested } from "./stop-signal.js";
import { stderrLine } from "./terminal-text.js";
import { parseTokenFile, tokenProblem, type TokenAudience } from "./token-file.js";
import { openStdio } from "./serve-stdio.js";
import { packageVersion } from "./version.js";

const WILDCARD = new Set(["0.0.0.0", "::", "0", "[::]"]);

/**
 * The bearer tokens: each line of `--token-file` (with the groups it names), else the one in the
 * environment (with the `--group` scope); empty for none.
 */
async function tokenAudiences(parsed: ParsedCommand): Promise<TokenAudience[]> {
  const file = stringValue(parsed, "token-file");
  if (file === undefined) {
    const token = (process.env[MCP_TOKEN_ENV] ?? "").trim();
    if (token.length === 0) return [];
    const problem = tokenProblem(token);
    if (problem !== null) throw usageError("serve", `${MCP_TOKEN_ENV}: ${problem}.`);
    return [{ token, scope: undefined }];
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw usageError("serve", `--token-file ${JSON.stringify(file)} cannot be read (${errorDetail(error)}).`);
  }
  return parseTokenFile(text, file);
}

/** The index to serve: followed (or loaded once), built first from the corpus when there is none. */
async function openIndex(
  dir: string,
  corpus: string | undefined,
  follow: boolean,
  vectorStore: VectorStoreL1Option | undefined,
  log: (line: string) => void,
  onGeneration: () => void,
): Promise<KnowledgeBase | FollowedKnowledgeBase> {
  const open = () =>
    follow
      ? followKnowledgeBase(dir, {
          vectorStore,
          onWarning: log,
          onGeneration: ({ generation }) => {
            log(`lookup-knowledge: serving the new index generation ${generation ?? "(unsaved)"}`);
            onGeneration();
          },
        })
      : KnowledgeBase.load(dir, vectorStore ? { vectorStore } : {});
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof LookupKnowledgeError) || error.code !== "INDEX_NOT_FOUND") throw error;
    const from = corpus ?? DEFAULT_CORPUS_DIR;
    log(`No index in ${dir} yet: building it from ${from} (once).`);
    await buildAndSave(from, dir, log, vectorStore);
    return open();
  }
}

/** Runs `lookup-knowledge serve` until a signal (or, over stdio, the client's end of stdin) stops it. */
export async function runServe(parsed: ParsedCommand, port: number, io: CliIO): Promise<number> {
  const { values } = parsed;
  const log = (line: string) => io.err(`${stderrLine(line)}\n`);
  const http = values.http === true;
  const host = String(values.host);
  const tokens = http ? await tokenAudiences(parsed) : [];
  if (http && tokens.length === 0 && !LOOPBACK_HOSTS.has(host)) {
    throw usageError(
      "serve",
      `--host ${host} is reachable from other machines: set a bearer token in ${MCP_TOKEN_ENV} or --token-file first.`,
    );
  }
  const allowedHosts = parsed.lists["allowed-host"] ?? [];
  if (http && WILDCARD.has(host) && allowedHosts.length === 0) {
    throw usageError(
      "serve",
      `--host ${host} listens on every address, but clients send the name they reached it by as Host: name it with --allowed-host (e.g. --allowed-host kb.internal), or bind that address with --host.`,
    );
  }
  const allowedOrigins = parsed.lists["allowed-origin"] ?? [];
  const badOrigin = allowedOrigins.find((origin) => normalizeOrigin(origin) === null);
  if (badOrigin !== undefined)
    throw usageError(
      "serve",
      `--allowed-origin ${JSON.stringify(badOrigin.slice(0, 100))} is not an origin; write it as scheme://host[:port], e.g. https://app.example.`,
    );
  const server = serverScope(groupScope("serve", parsed.lists.group));
  const limits = serveLimits(parsed);
  const tracePath = values["no-trace"] === true ? null : stringValue(parsed, "trace");
  const store = await openCliVectorStore(values);
  let tools: ServedTools | null = null;
  try {
    const kb = await openIndex(
      String(values.index),
      stringValue(parsed, "corpus"),
      values["no-follow"] !== true,
      store.vectorStore,
      log,
      // Each scope's description and schema follow the generation: tell the clients that hold a connection.
      () => tools?.toolsChanged(),
    );
    const served = createServedTools({ knowledgeBase: kb, tracePath, version: packageVersion() });
    tools = served;
    const scoped = scopedTokens(tokens, server);
    const audiences = scoped.map(({ token, scope }) => ({ token, handler: served.of(scope).handler }));
    const { lookup, handler } = served.of(scoped[0]?.scope ?? server);
    const summary =
      scoped.length > 0
        ? scopeSummary(
            scoped.map((token) => token.scope),
            ["token", "tokens"],
          )
        : scopeSummary([server], ["every caller", "every caller"]);
    for (const line of summary) log(`lookup-knowledge: scope of ${line}`);
    // The stdio client has the same fair share as one token over HTTP.
    const lane = createCallLane({ maxInFlight: limits.maxCallsInFlight, maxQueued: limits.maxQueuedCalls });
    const stdio = http ? null : openStdio(handler, log, lane);
    const stop = stopRequested(stdio?.ended);
    const corpus = stringValue(parsed, "corpus") ?? DEFAULT_CORPUS_DIR;
    const indexDir = String(values.index);
    // Started once the transport is up: a server that cannot listen must not leave a watcher running.
    const watch = () =>
      values.watch === true
        ? watchCorpus({
            corpus,
            out: indexDir,
            log,
            stop,
            update: () => indexOnce(corpus, indexDir, false, log, store.vectorStore),
          }).catch((error: unknown) => log(`lookup-knowledge: ${errorDetail(error)}`))
        : Promise.resolve();
    let watching: Promise<void> = Promise.resolve();
    let reason: string;
    if (http) {
      const endpoint = await startMcpHttpEndpoint({
        host,
        port,
        allowedHosts,
        allowedOrigins,
        ...limits,
        ...(audiences.length > 0 ? { audiences } : { handler }),
      });
      const required =
        audiences.length === 0
          ? ""
          : ` (bearer token required; ${audiences.length} ${audiences.length === 1 ? "token" : "tokens"})`;
      log(`lookup-knowledge: serving ${lookup.name} over MCP (Streamable HTTP) at ${endpoint.url}${required}`);
      watching = watch();
      reason = await stop;
      log(`lookup-knowledge: ${reason}: stopping after ${served.inFlight()} call(s) in flight`);
      await endpoint.close();
    } else if (stdio !== null) {
      await stdio.connect();
      log(`lookup-knowledge: serving ${lookup.name} over MCP (stdio)`);
      watching = watch();
      reason = await stop;
      log(`lookup-knowledge: ${reason}: stopping after ${handler.inFlight} call(s) in flight`);
      // Bounded as over HTTP: a stalled client cannot hold the exit.
      const grace = limits.closeGraceMs ?? DEFAULT_STOP_GRACE_MS;
      await Promise.race([stdio.close(), new Promise((resolve) => setTimeout(resolve, grace).unref())]);
    }
    await watching;
    await served.close();
    if (!(kb instanceof KnowledgeBase)) kb.close();
    return 0;
  } finally {
    await store.close();
  }
}
