import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS } from "../mcp/http-limits.js";
import { DEFAULT_STOP_GRACE_MS } from "../mcp/http-endpoint.js";
import { integerValue, stringValue, type OptionSpec, type ParsedCommand } from "./command-spec.js";

type LimitFlag = "headers-timeout" | "request-timeout" | "max-connections" | "stop-grace";

/** `serve --http`'s bounds on connections, each with the endpoint's default. */
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
} {
  const value = (flag: LimitFlag, max: number) => {
    const raw = stringValue(parsed, flag);
    return raw === undefined ? undefined : integerValue("serve", flag, raw, 1, max);
  };
  const headersTimeoutMs = value("headers-timeout", DAY_MS);
  const requestTimeoutMs = value("request-timeout", DAY_MS);
  const maxConnections = value("max-connections", 1_000_000);
  const closeGraceMs = value("stop-grace", DAY_MS);
  return {
    ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}),
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(closeGraceMs !== undefined ? { closeGraceMs } : {}),
  };
}
