/** Raw JSON-RPC posts to an MCP endpoint, for what the SDK client would never send. */

/** The headers a Streamable HTTP client sends, plus `extra`. */
export function mcpHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    ...extra,
  };
}

/** A `tools/call` of `lookup_knowledge` with these params' `arguments` (absent when `args` is undefined). */
export function toolCall(id: number, args: unknown): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: args === undefined ? { name: "lookup_knowledge" } : { name: "lookup_knowledge", arguments: args },
  };
}

/** Posts `body` as JSON; resolves with the status and the parsed answer (null for none). */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { method: "POST", headers: mcpHeaders(headers), body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text.length > 0 ? (JSON.parse(text) as unknown) : null };
}
