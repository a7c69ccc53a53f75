import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { McpToolHandler } from "./mcp-tool-server.js";

/** Milliseconds without a new request or connection after which a stopping endpoint stops listening. */
export const STOP_QUIET_MS = 100;

/** What a stop needs to know of the running endpoint. */
export interface StopState {
  /** Set by the stop: requests read from now on get 503. */
  closing: boolean;
  /** When the last request or connection arrived (epoch ms). */
  lastArrival: number;
  /** Responses not yet written to the end. */
  open: Set<Promise<void>>;
  /** Connections accepted that have not sent a request yet: a busy loop may not have read it. */
  fresh: Set<Socket>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Stops an endpoint within `graceMs`: it keeps listening while the calls in flight answer and
 * their responses are written, so that requests already on the wire (read late by a busy loop)
 * are answered, by their result or by 503, rather than reset; it stops listening once every
 * connection has sent its request and none has come for {@link STOP_QUIET_MS}; at the end of the grace, whatever is still
 * open is cut.
 */
export async function stopHttpEndpoint(
  http: Server,
  handlers: readonly McpToolHandler[],
  state: StopState,
  graceMs: number,
): Promise<void> {
  const deadline = Date.now() + graceMs;
  const left = () => Math.max(0, deadline - Date.now());
  const within = (work: Promise<unknown>) => Promise.race([work, sleep(left())]);
  state.closing = true;
  await within(Promise.all(handlers.map((each) => each.drain())));
  // A fresh connection holds a request that is on the wire but not read yet (or none: the headers
  // timeout then answers it 408); closing it now would reset that request.
  const pending = () => state.open.size > 0 || state.fresh.size > 0 || Date.now() - state.lastArrival < STOP_QUIET_MS;
  while (left() > 0 && pending()) {
    if (state.open.size > 0) await within(Promise.all([...state.open]));
    else await sleep(Math.min(STOP_QUIET_MS, left()));
  }
  const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  await within(Promise.all([...state.open]));
  http.closeAllConnections();
  await stopped;
}
