import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { LookupKnowledgeError, errorDetail } from "../errors.js";
import { audienceOf, bearerMatches, type McpAudience } from "./bearer-token.js";
import { createCallLane, resolveCallLaneBounds } from "./call-lane.js";
import { resolveHttpLimits } from "./http-limits.js";
import { refuse } from "./http-refusal.js";
import { stopHttpEndpoint, type StopState } from "./http-stop.js";
import { answerMcpRequest, MCP_PATH } from "./http-request.js";
import type { McpToolHandler } from "./mcp-tool-server.js";
import { LOOPBACK_HOSTS, normalizeOrigin, originAllowed } from "./request-origin.js";

export type { McpAudience } from "./bearer-token.js";

export { MCP_PATH } from "./http-request.js";

/** Milliseconds a stop may take by default before it cuts what is still open. */
export const DEFAULT_STOP_GRACE_MS = 10_000;

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
  /** Milliseconds a client may take to send a request's headers; slower ones are answered 408 and closed. @default 10000 */
  headersTimeoutMs?: number;
  /**
   * Milliseconds a client may take to send a whole request, headers and body: a body dripped
   * slower is cut (408, connection closed). @default 30000
   */
  requestTimeoutMs?: number;
  /** Most connections open at once; one more is closed as it arrives. @default 512 */
  maxConnections?: number;
  /**
   * Lookups one caller (a bearer token, all its clients together) may have running at once; its
   * further calls wait their turn, and other callers' calls never wait behind them. Raise it
   * for a slow L1 or embeddings service, where calls wait on the network rather than the CPU. @default 1
   */
  maxCallsInFlight?: number;
  /**
   * Lookups one caller may have waiting beyond those running (a JSON-RPC batch counts as its
   * calls); one more answers JSON-RPC error -32029 `TOO_MANY_CALLS`, and a request none of whose
   * calls fits gets 429 with `Retry-After`. @default 64
   */
  maxQueuedCalls?: number;
  /**
   * Milliseconds `close()` may take: it answers every request already received (requests read
   * after it began get 503 with `Retry-After` and `Connection: close`), and cuts what is still
   * open when this grace ends. @default 10000
   */
  closeGraceMs?: number;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpEndpoint {
  /** `http://host:port/mcp`. */
  readonly url: string;
  /**
   * Stops taking work: the calls in flight answer, requests that arrive meanwhile get 503, the
   * listener closes once requests stop coming, and every connection is closed, all within `closeGraceMs`.
   */
  close(): Promise<void>;
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
  closeGraceMs = DEFAULT_STOP_GRACE_MS,
  maxCallsInFlight,
  maxQueuedCalls,
  ...limitOptions
}: McpHttpOptions): Promise<McpHttpEndpoint> {
  const limits = resolveHttpLimits(limitOptions);
  const bounds = resolveCallLaneBounds({ maxInFlight: maxCallsInFlight, maxQueued: maxQueuedCalls });
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
  // One fair share per token, even where tokens share a scope's handler.
  const callers = audiences?.map((audience) => ({ ...audience, lane: createCallLane(bounds) }));
  const anyone = { handler: handler as McpToolHandler, lane: createCallLane(bounds) };
  const route = (authorization: string | undefined) => {
    if (callers !== undefined) return audienceOf(authorization, callers);
    return token === null || bearerMatches(authorization, token) ? anyone : null;
  };
  let allowedHosts: string[] = [];
  // Responses not yet written to the end: a call that has answered is only done once its response is.
  const state: StopState = { closing: false, lastArrival: 0, open: new Set(), fresh: new Set() };
  const rules = {
    route,
    hostAllowed: (header: string | undefined) => header !== undefined && allowedHosts.includes(header),
    originAllowed: (header: string | undefined) => originAllowed(header, origins, loopbackBind),
    allowedHosts: () => allowedHosts,
    maxBodyBytes,
    closing: () => state.closing,
  };
  const http: Server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      state.lastArrival = Date.now();
      state.fresh.delete(req.socket);
      const done = new Promise<void>((resolve) => res.once("close", () => resolve()));
      state.open.add(done);
      void done.then(() => state.open.delete(done));
      answerMcpRequest(rules, req, res).catch(() => {
        if (!res.headersSent) refuse(res, 500, "internal error");
        else res.end();
      });
    },
  );
  http.maxConnections = limits.maxConnections;
  http.on("connection", (socket: Socket) => {
    state.lastArrival = Date.now();
    state.fresh.add(socket);
    socket.once("close", () => state.fresh.delete(socket));
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
    close: () => stopHttpEndpoint(http, handlers, state, closeGraceMs),
  };
}
