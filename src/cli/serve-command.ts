import { DEFAULT_TRACE_PATH } from "../graph/options.js";
import { integerValue, type CommandSpec } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_INDEX_DIR } from "./defaults.js";
import { PGVECTOR_FLAGS } from "./pgvector-flags.js";
import { SERVE_LIMIT_FLAGS } from "./serve-limit-flags.js";
import { MCP_TOKEN_ENV } from "./token-file.js";

export { MCP_TOKEN_ENV } from "./token-file.js";

/** Default port of `serve --http`. */
export const DEFAULT_MCP_PORT = 3333;

/** `lookup-knowledge serve`: the tool as an MCP server over stdio or Streamable HTTP. */
export const SERVE_COMMAND: CommandSpec = {
  name: "serve",
  summary: "Serve lookup_knowledge to any MCP client, over stdio (default) or Streamable HTTP (--http).",
  details: [
    "Over stdio (for desktop agents) stdout carries the protocol and every message goes to stderr; with --http the endpoint is http://HOST:PORT/mcp (stateless: any number of clients).",
    `It follows the index folder: a generation that \`lookup-knowledge index\` commits is served from the next call on, without a restart (--no-follow keeps the first one). With no index yet it builds one from --corpus (default: ${DEFAULT_CORPUS_DIR}) first.`,
    `Over HTTP, set a bearer token in ${MCP_TOKEN_ENV} or tokens in a file (--token-file), never on the command line; one is required when --host is not a loopback address. A token file holds one token per line, then the groups its callers read as (none: the server's scope; * alone: every document), so one server serves several audiences. Only the bound host is accepted as the Host header (DNS rebinding protection).`,
    "Every caller has the scope --group gives, or else reads only files without an access label; --group '*' (or * on a token's line) reads every file. The client's arguments cannot change it; startup prints one line per kind of scope. SIGINT/SIGTERM stop it after the calls in flight have answered and their trace lines are written.",
  ].join("\n"),
  options: {
    http: { type: "boolean", default: false, description: "Serve Streamable HTTP at /mcp instead of stdio." },
    host: { type: "string", value: "HOST", default: "127.0.0.1", description: "With --http: the address to bind." },
    port: {
      type: "string",
      value: "N",
      default: String(DEFAULT_MCP_PORT),
      description: "With --http: the port (0 picks a free one, printed on stderr).",
    },
    "allowed-host": {
      type: "string",
      value: "NAME",
      multiple: true,
      description:
        "With --http: a name clients reach the server by (kb.internal, kb.internal:8443), accepted as the Host header besides the bound address; needed with a wildcard --host such as 0.0.0.0.",
    },
    "allowed-origin": {
      type: "string",
      value: "ORIGIN",
      multiple: true,
      description:
        "With --http: a browser origin allowed to call (https://app.example); a request whose Origin header is present and not allowed gets 403. On a loopback --host, pages from loopback hosts are allowed.",
    },
    "token-file": {
      type: "string",
      value: "FILE",
      description: `With --http: the bearer tokens, one per line with the groups its callers read as: TOKEN [GROUP ... | *] (no groups: the --group scope; otherwise one token from ${MCP_TOKEN_ENV}, if set).`,
    },
    group: {
      type: "string",
      value: "NAME",
      multiple: true,
      description:
        "Answer every call as a member of group NAME (repeat for several): only files whose `access` names one of them, and unlabelled ones, are read. Without it, only unlabelled files; '*' reads every file.",
    },
    index: {
      type: "string",
      value: "DIR",
      default: DEFAULT_INDEX_DIR,
      description: "The saved index to serve (and follow).",
    },
    corpus: {
      type: "string",
      value: "DIR",
      description: `The corpus to build the index from when there is none (default: ${DEFAULT_CORPUS_DIR}).`,
    },
    watch: {
      type: "boolean",
      default: false,
      description: `Also watch the corpus (--corpus, default: ${DEFAULT_CORPUS_DIR}) and update the index after each batch of changes, as \`index --watch\` does.`,
    },
    "no-follow": {
      type: "boolean",
      default: false,
      description: "Keep serving the generation loaded at start, ignoring new ones.",
    },
    trace: {
      type: "string",
      value: "FILE",
      description: `Append a JSONL trace line per call to FILE (default: ${DEFAULT_TRACE_PATH}).`,
    },
    "no-trace": { type: "boolean", default: false, description: "Write no trace lines." },
    ...SERVE_LIMIT_FLAGS,
    ...PGVECTOR_FLAGS,
  },
  examples: [
    "lookup-knowledge serve",
    "lookup-knowledge serve --http --port 3333",
    "LOOKUP_KNOWLEDGE_MCP_TOKEN=$(cat token) lookup-knowledge serve --http --host 0.0.0.0 --allowed-host kb.internal --group support",
  ],
  async run(parsed, io) {
    const port = integerValue("serve", "port", String(parsed.values.port), 0, 65535);
    const { runServe } = await import("./serve-run.js");
    return runServe(parsed, port, io);
  },
};
