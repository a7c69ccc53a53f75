import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { errorDetail } from "../errors.js";
import type { CallLane } from "../mcp/call-lane.js";
import type { McpToolHandler } from "../mcp/mcp-tool-server.js";

/** The MCP server over this process's stdin and stdout. */
export interface StdioServing {
  /** Resolves with why serving should stop: the client closed stdin, or the transport closed (a message over the SDK's size limit closes it). */
  ended: Promise<string>;
  connect(): Promise<void>;
  /** Lets the calls in flight answer and their answers reach stdout, then closes the server. */
  close(): Promise<void>;
}

/** Transport errors logged one line each; past this many, they are counted and the count is logged at close. */
export const MAX_LOGGED_TRANSPORT_ERRORS = 10;

/**
 * A transport error as one line that never quotes what the client sent: the SDK's own messages
 * copy the start of a line that is not JSON (a client writing garbage, or a file piped in by mistake).
 */
export function describeTransportError(error: unknown): string {
  if (error instanceof SyntaxError) return "a line from the client is not JSON; it was ignored";
  if (error instanceof Error && error.name === "ZodError")
    return "a message from the client is not a valid JSON-RPC message; it was ignored";
  return errorDetail(error).slice(0, 200);
}

/**
 * Serves `handler` over stdio, its calls taking turns in `lane` (the one client's fair share);
 * transport errors are logged as one line each, at most {@link MAX_LOGGED_TRANSPORT_ERRORS}.
 */
export function openStdio(handler: McpToolHandler, log: (line: string) => void, lane?: CallLane): StdioServing {
  const server = handler.createServer(lane);
  const transport = new StdioServerTransport();
  const sending = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  // An answer is out once stdout took it, not when the tool call settled.
  transport.send = (message) => {
    const sent = send(message);
    sending.add(sent);
    void sent.finally(() => sending.delete(sent)).catch(() => undefined);
    return sent;
  };
  let transportErrors = 0;
  let closed!: (why: string) => void;
  const ended = new Promise<string>((resolve) => {
    closed = resolve;
    process.stdin.once("end", () => resolve("the client closed stdin"));
  });
  return {
    ended,
    async connect() {
      await server.connect(transport);
      const previous = server.onclose;
      server.onclose = () => {
        previous?.();
        closed("the MCP connection closed");
      };
      server.onerror = (error: Error) => {
        transportErrors += 1;
        if (transportErrors <= MAX_LOGGED_TRANSPORT_ERRORS)
          log(`lookup-knowledge: MCP over stdio: ${describeTransportError(error)}`);
      };
    },
    async close() {
      await handler.drain();
      // The SDK sends an answer a few turns after its call settles.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (sending.size > 0) await Promise.allSettled([...sending]);
      await server.close();
      const unlogged = transportErrors - MAX_LOGGED_TRANSPORT_ERRORS;
      if (unlogged > 0) log(`lookup-knowledge: MCP over stdio: ${unlogged} more messages from the client were ignored`);
    },
  };
}
