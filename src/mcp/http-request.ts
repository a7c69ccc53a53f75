import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TOO_MANY_CALLS_RETRY_SECONDS, TOO_MANY_CALLS_RPC_CODE, tooManyCalls, type CallLane } from "./call-lane.js";
import { refuse, refuseAndClose } from "./http-refusal.js";
import type { McpToolHandler } from "./mcp-tool-server.js";
import { readBoundedBody } from "./request-body.js";

/** The path MCP clients post to. */
export const MCP_PATH = "/mcp";

/** What one request is checked against, fixed when the endpoint starts. */
export interface RequestRules {
  /** The handler and fair share of the caller the `Authorization` header names; null for none. */
  route(authorization: string | undefined): { handler: McpToolHandler; lane: CallLane } | null;
  /** Whether the `Host` header names this server. */
  hostAllowed(host: string | undefined): boolean;
  /** Whether the `Origin` header, when present, is allowed. */
  originAllowed(origin: string | undefined): boolean;
  /** The Host names the SDK's own check accepts. */
  allowedHosts(): string[];
  maxBodyBytes: number;
  /** True once the endpoint is stopping: new requests get 503. */
  closing(): boolean;
}

/** How many `tools/call` requests a JSON-RPC message or batch holds (a batch counts as its calls). */
export function countToolCalls(parsed: unknown): number {
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return messages.filter(
    (message) =>
      typeof message === "object" && message !== null && "method" in message && message.method === "tools/call",
  ).length;
}

/** Seconds a client is told to wait before retrying a request refused while the server stops. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Answers one request: everything that can be refused from the headers alone (path, stop, Host,
 * Origin, token, method, declared size) is refused before a byte of the body is read, and its
 * connection is closed; the body is then read up to the cap and handed to a stateless MCP server.
 */
export async function answerMcpRequest(rules: RequestRules, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "").split("?")[0];
  if (path !== MCP_PATH) return refuseAndClose(req, res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
  // Not refuseAndClose: this client did nothing wrong, so its (bounded) body is read and the
  // connection ends with a FIN, never a reset that could cost it the answer.
  if (rules.closing())
    return refuse(res, 503, "the server is shutting down; retry shortly", {
      "retry-after": String(RETRY_AFTER_SECONDS),
      connection: "close",
    });
  if (!rules.hostAllowed(req.headers.host))
    return refuseAndClose(req, res, 403, "forbidden: this Host is not one this server answers to");
  if (!rules.originAllowed(req.headers.origin))
    return refuseAndClose(
      req,
      res,
      403,
      "forbidden: this Origin is not allowed; the operator lists allowed origins with --allowed-origin",
    );
  const served = rules.route(req.headers.authorization);
  if (served === null)
    return refuseAndClose(req, res, 401, "unauthorized: send Authorization: Bearer <token>", {
      "www-authenticate": "Bearer",
    });
  if (req.method !== "POST")
    return refuseAndClose(req, res, 405, "method not allowed: this stateless endpoint takes POST only", {
      allow: "POST",
    });
  const body = await readBoundedBody(req, rules.maxBodyBytes);
  if (!body.ok) {
    if (body.reason === "aborted") return;
    return refuseAndClose(req, res, 413, `request body too large: at most ${rules.maxBodyBytes} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text) as unknown;
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null }),
    );
    return;
  }
  const calls = countToolCalls(parsed);
  // A request none of whose calls could be taken is refused whole, before any work.
  if (calls > 0 && served.lane.room === 0) {
    const { code, message } = tooManyCalls(served.lane.limits.maxInFlight, served.lane.limits.maxQueued);
    const headers = { "retry-after": String(TOO_MANY_CALLS_RETRY_SECONDS) };
    return refuse(res, 429, `${code}: ${message}`, headers, TOO_MANY_CALLS_RPC_CODE);
  }
  const server = served.handler.createServer(served.lane);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    allowedHosts: rules.allowedHosts(),
    maxRequestBodySize: rules.maxBodyBytes,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsed);
}

export { refuse };
