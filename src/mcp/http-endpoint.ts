import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { LookupKnowledgeError, errorDetail } from "../errors.js";
import { audienceOf, bearerMatches, type McpAudience } from "./bearer-token.js";
import type { McpToolHandler } from "./mcp-tool-server.js";
import { LOOPBACK_HOSTS, normalizeOrigin, originAllowed } from "./request-origin.js";

export type { McpAudience } from "./bearer-token.js";

/** The path MCP clients post to. */
export const MCP_PATH = "/mcp";

/** Options of {@link startMcpHttpEndpoint}. */
export interface McpHttpOptions {
  /** The tool served to every caller when `audiences` is not given. */
  handler?: McpToolHandler;
  /**
   * One tool per bearer token, so that one server serves several audiences, each with the scope
   * its tool was made with; a request whose token matches none is refused (401). Replaces
   * `handler` and `token`. @default none
   */
  audiences?: readonly McpAudience[];
  /** The address to bind. @default "127.0.0.1" */
  host?: string;
  /** The port; 0 picks a free one. @default 3333 */
  port?: number;
  /** A bearer token every request must carry (`Authorization: Bearer <token>`); null for none. @default null */
  token?: string | null;
  /** Largest request body in bytes. @default 1 MiB */
  maxBodyBytes?: number;
  /**
   * Further names clients reach the server by (`kb.internal`, `kb.internal:8443`), accepted as the
   * `Host` header besides the bound address; a name without a port gets the bound port. A server
   * bound to a wildcard address (`0.0.0.0`, `::`) needs them: no client sends that as its Host.
   * @default none
   */
  allowedHosts?: readonly string[];
  /**
   * Origins of browser pages allowed to call (`https://app.example`, scheme, host and port as the
   * `Origin` header carries them). A request whose `Origin` is present and not allowed is refused
   * (403), as the Streamable HTTP transport requires; one without `Origin` (a program) is not. On
   * a loopback bind, pages served from a loopback host (`http://localhost:5173`) are allowed too.
   * @throws LookupKnowledgeError `INVALID_OPTION` for an entry that is not an http(s) origin.
   * @default none
   */
  allowedOrigins?: readonly string[];
  /** Milliseconds `close()` waits, after the calls in flight have answered, for their responses to be written before cutting connections. @default 5000 */
  closeGraceMs?: number;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpEndpoint {
  /** `http://host:port/mcp`. */
  readonly url: string;
  /** Stops taking requests, lets the calls in flight answer, then closes every connection. */
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves the tool over MCP's Streamable HTTP transport at {@link MCP_PATH}, stateless (a server
 * and transport per request, so any number of clients share the tool), with the SDK's DNS
 * rebinding protection: only the bound host and, on a loopback address, the loopback names are
 * accepted as `Host`; an `Origin` outside `allowedOrigins` is refused.
 * @throws LookupKnowledgeError `INVALID_OPTION` when the address cannot be bound (in use, not local) or an allowed origin is not one.
 */
export async function startMcpHttpEndpoint({
  handler,
  audiences,
  host = "127.0.0.1",
  port = 3333,
  token = null,
  maxBodyBytes = 1 << 20,
  allowedHosts: extraHosts = [],
  allowedOrigins = [],
  closeGraceMs = 5000,
}: McpHttpOptions): Promise<McpHttpEndpoint> {
  const origins = new Set<string>();
  for (const entry of allowedOrigins) {
    const origin = normalizeOrigin(entry);
    if (origin === null)
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `allowedOrigins entry ${JSON.stringify(entry.slice(0, 100))} is not an origin; write it as scheme://host[:port], e.g. https://app.example.`,
      );
    origins.add(origin);
  }
  const loopbackBind = LOOPBACK_HOSTS.has(host);
  if (audiences === undefined && handler === undefined)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "startMcpHttpEndpoint needs a handler (createMcpToolHandler) or audiences.",
    );
  const handlers = audiences?.map((audience) => audience.handler) ?? [handler as McpToolHandler];
  const route = (authorization: string | undefined): McpToolHandler | null => {
    if (audiences !== undefined) return audienceOf(authorization, audiences);
    return token === null || bearerMatches(authorization, token) ? (handler as McpToolHandler) : null;
  };
  let allowedHosts: string[] = [];
  let closing = false;
  /** Responses not yet written to the end: a call that has answered is only done once its response is. */
  const open = new Set<Promise<void>>();
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_PATH) return refuse(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (closing) return refuse(res, 503, "the server is shutting down", { connection: "close" });
    if (!originAllowed(req.headers.origin, origins, loopbackBind))
      return refuse(
        res,
        403,
        "forbidden: this Origin is not allowed; the operator lists allowed origins with --allowed-origin",
      );
    const served = route(req.headers.authorization);
    if (served === null)
      return refuse(res, 401, "unauthorized: send Authorization: Bearer <token>", { "www-authenticate": "Bearer" });
    if (req.method !== "POST")
      return refuse(res, 405, "method not allowed: this stateless endpoint takes POST only", { allow: "POST" });
    const server = served.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts,
      maxRequestBodySize: maxBodyBytes,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http: Server = createServer((req, res) => {
    const done = new Promise<void>((resolve) => res.once("close", () => resolve()));
    open.add(done);
    void done.then(() => open.delete(done));
    answer(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error) =>
      reject(
        new LookupKnowledgeError(
          "INVALID_OPTION",
          `cannot listen on ${host}:${port} (${errorDetail(error)}); pick another --port or --host.`,
          { cause: error },
        ),
      ),
    );
    http.listen(port, host, () => resolve());
  });
  const bound = (http.address() as AddressInfo).port;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  const named = extraHosts.flatMap((name) => {
    const withPort =
      /:\d+$/.test(name) && !/^[^[]*:.*:/.test(name)
        ? name
        : `${name.includes(":") && !name.startsWith("[") ? `[${name}]` : name}:${bound}`;
    return [withPort, withPort.toLowerCase()];
  });
  allowedHosts = [
    ...new Set([
      `${hostPart}:${bound}`,
      ...(loopbackBind ? [`127.0.0.1:${bound}`, `localhost:${bound}`, `[::1]:${bound}`] : []),
      ...named,
    ]),
  ];
  return {
    url: `http://${hostPart}:${bound}${MCP_PATH}`,
    async close() {
      closing = true;
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      await Promise.all(handlers.map((each) => each.drain()));
      // The calls have answered; let their responses reach the wire (bounded: a stalled client cannot hold the exit).
      await Promise.race([Promise.all([...open]), new Promise((resolve) => setTimeout(resolve, closeGraceMs).unref())]);
      http.closeAllConnections();
      await stopped;
    },
  };
}
