import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS } from "../mcp/http-limits.js";
import { DEFAULT_STOP_GRACE_MS } from "../mcp/http-endpoint.js";
import { DEFAULT_MAX_CALLS_IN_FLIGHT, DEFAULT_MAX_QUEUED_CALLS } from "../mcp/call-lane.js";
import { integerValue, stringValue, type OptionSpec, type ParsedCommand } from "./command-spec.js";

type LimitFlag =
  "headers-timeout" | "request-timeout" | "max-connections" | "stop-grace" | "max-calls-in-flight" | "max-queued-calls";

/** `serve`'s bounds on connections and on each caller's calls, each with the endpoint's default. */
export const SERVE_LIMIT_FLAGS: Record<LimitFlag, OptionSpec> = {
  "headers-timeout": {
    type: "string",
    value: "MS",
    description: `With --http: milliseconds a client may take to send a request's headers (default: ${DEFAULT_HEADERS_TIMEOUT_MS}); slower ones get 408 and are closed.`,
  },
  "request-timeout": {
    type: "string",
    value: "MS",
    description: `With --http: milliseconds a client may take to send a whole request, body included (default: ${DEFAULT_REQUEST_TIMEOUT_MS}); a body dripped slower gets 408 and is closed.`,
  },
  "max-connections": {
    type: "string",
    value: "N",
    description: `With --http: most connections open at once (default: ${DEFAULT_MAX_CONNECTIONS}); one more is closed as it arrives.`,
  },
  "max-calls-in-flight": {
    type: "string",
    value: "N",
    description: `Lookups one caller (a bearer token, or the stdio client) may have running at once (default: ${DEFAULT_MAX_CALLS_IN_FLIGHT}); its further calls wait their turn, never other callers'.`,
  },
  "max-queued-calls": {
    type: "string",
    value: "N",
    description: `Lookups one caller may have waiting beyond those running, a batch counting as its calls (default: ${DEFAULT_MAX_QUEUED_CALLS}); one more gets JSON-RPC error -32029, a request none of whose calls fits 429 with Retry-After.`,
  },
  "stop-grace": {
    type: "string",
    value: "MS",
    description: `Milliseconds a stop (SIGINT/SIGTERM) may take (default: ${DEFAULT_STOP_GRACE_MS}): requests already received are answered, later ones get 503; what is still open at the end is cut.`,
  },
};

const DAY_MS = 86_400_000;

/** The limits given on the command line, as endpoint options (absent: the endpoint's defaults). */
export function serveLimits(parsed: ParsedCommand): {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxConnections?: number;
  closeGraceMs?: number;
  maxCallsInFlight?: number;
  maxQueuedCalls?: number;
} {
  const value = (flag: LimitFlag, max: number, min = 1) => {
    const raw = stringValue(parsed, flag);
    return raw === undefined ? undefined : integerValue("serve", flag, raw, min, max);
  };
  const headersTimeoutMs = value("headers-timeout", DAY_MS);
  const requestTimeoutMs = value("request-timeout", DAY_MS);
  const maxConnections = value("max-connections", 1_000_000);
  const closeGraceMs = value("stop-grace", DAY_MS);
  const maxCallsInFlight = value("max-calls-in-flight", 10_000);
  const maxQueuedCalls = value("max-queued-calls", 1_000_000, 0);
  return {
    ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}),
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(closeGraceMs !== undefined ? { closeGraceMs } : {}),
    ...(maxCallsInFlight !== undefined ? { maxCallsInFlight } : {}),
    ...(maxQueuedCalls !== undefined ? { maxQueuedCalls } : {}),
  };
}
