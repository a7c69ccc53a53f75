import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { errorDetail } from "../errors.js";
import type { McpToolHandler } from "../mcp/mcp-tool-server.js";

/** The MCP server over this process's stdin and stdout. */
export interface StdioServing {
  /** Resolves with why serving should stop: the client closed stdin, or the transport closed (a message over the SDK's size limit closes it). */
  ended: Promise<string>;
  connect(): Promise<void>;
  /** Lets the calls in flight answer and their answers reach stdout, then closes the server. */
  close(): Promise<void>;
}

/** Serves `handler` over stdio; transport errors are logged as one line each. */
export function openStdio(handler: McpToolHandler, log: (line: string) => void): StdioServing {
  const server = handler.createServer();
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
  let closed!: (why: string) => void;
  const ended = new Promise<string>((resolve) => {
    closed = resolve;
    process.stdin.once("end", () => resolve("the client closed stdin"));
  });
  return {
    ended,
    async connect() {
      await server.connect(transport);
      const previous = server.server.onclose;
      server.server.onclose = () => {
        previous?.();
        closed("the MCP connection closed");
      };
      server.server.onerror = (error) => log(`lookup-knowledge: MCP over stdio: ${errorDetail(error).slice(0, 300)}`);
    },
    async close() {
      await handler.drain();
      // The SDK sends an answer a few turns after its call settles.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (sending.size > 0) await Promise.allSettled([...sending]);
      await server.close();
    },
  };
}
