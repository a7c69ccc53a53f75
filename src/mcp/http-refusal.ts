import type { IncomingMessage, ServerResponse } from "node:http";

/** Milliseconds a refused connection stays half-closed, unread, so the client can read its answer before the reset. */
export const REFUSAL_LINGER_MS = 1000;

/** Writes a JSON-RPC error answer with `status` (the body a Streamable HTTP client expects), code -32000 unless given. */
export function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Refuses a request whose body is not read, and closes its connection: the answer says
 * `Connection: close`, the socket stops reading at once (whatever the client still sends stays
 * unread, however large it says the body is), is half-closed once the answer is out, and is cut
 * `lingerMs` later, so that a client gets its answer before the reset.
 */
export function refuseAndClose(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  lingerMs = REFUSAL_LINGER_MS,
): void {
  const socket = req.socket;
  // Node would otherwise read and discard the rest of the body to keep the connection.
  socket.pause();
  req.removeAllListeners("data");
  res.once("finish", () => {
    socket.end();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  });
  refuse(res, status, message, { ...headers, connection: "close" });
}
