import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LookupKnowledgeError } from "../errors.js";
import type { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import { lookupResultSchema } from "./lookup-result-schema.js";

/** The LangChain tool an MCP server serves. */
export type LookupKnowledgeToolInstance = ReturnType<typeof createLookupKnowledgeTool>;

/** Options of {@link createMcpToolHandler}. */
export interface McpToolHandlerOptions {
  /** The tool each call runs: its name, description and input schema are what MCP clients see. */
  tool: LookupKnowledgeToolInstance;
  /** The server's name in the MCP handshake. @default "lookup-knowledge" */
  serverName?: string;
  /** The server's version in the MCP handshake. @default "0.0.0" */
  version?: string;
}

/** Serves one tool to any number of MCP server instances and knows which calls are in flight. */
export interface McpToolHandler {
  /** A new MCP server with the tool registered (one per connection or, over stateless HTTP, per request). */
  createServer(): McpServer;
  /** Resolves once every call started so far has answered. */
  drain(): Promise<void>;
  /** Calls answering now. */
  readonly inFlight: number;
}

/** The error text an MCP client may see: this package's errors as they are (code and fix), anything else generic. */
export function mcpErrorText(error: unknown): string {
  if (error instanceof LookupKnowledgeError) return `${error.code}: ${error.message}`;
  // The client's own arguments, refused by the schema: nothing of the corpus is in the message.
  if (error instanceof Error && error.name === "ToolInputParsingException")
    return `INVALID_INPUT: ${error.message.slice(0, 1000)}`;
  return "lookup-knowledge: the lookup failed with an internal error; the server's operator can find it in the trace.";
}

/**
 * Wraps the `lookup_knowledge` tool for MCP: a call runs the tool exactly as a model's tool call
 * does (the same schema check, limits, escaping, trace line) and answers with the tool's text as
 * `content` and the {@link LookupResult} as `structuredContent` (described by `outputSchema`). A failed lookup answers
 * `isError` with one line; the scope is the tool's own (trusted options), never the client's.
 */
export function createMcpToolHandler({
  tool,
  serverName = "lookup-knowledge",
  version = "0.0.0",
}: McpToolHandlerOptions): McpToolHandler {
  const running = new Set<Promise<unknown>>();
  const call = async (
    args: Record<string, unknown>,
    requestId: string | number,
    signal: AbortSignal,
  ): Promise<CallToolResult> => {
    try {
      // The MCP request id is the trace line's tool_call_id, as a model's tool call id is.
      const message = await tool.invoke(
        { type: "tool_call", id: String(requestId), name: tool.name, args },
        { signal },
      );
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      // The artifact as plain JSON: chunk contents are getters, which JSON keeps.
      const structuredContent = JSON.parse(JSON.stringify(message.artifact)) as Record<string, unknown>;
      return { content: [{ type: "text", text }], structuredContent };
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: mcpErrorText(error) }] };
    }
  };
  return {
    createServer() {
      const server = new McpServer({ name: serverName, version }, { capabilities: { tools: {} } });
      const config = {
        description: tool.description,
        inputSchema: tool.schema,
        outputSchema: lookupResultSchema,
        annotations: { readOnlyHint: true, openWorldHint: false },
      };
      server.registerTool(tool.name, config, (args, extra) => {
        const answer = call(args, extra.requestId, extra.signal);
        running.add(answer);
        void answer.finally(() => running.delete(answer));
        return answer;
      });
      return server;
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    get inFlight() {
      return running.size;
    },
  };
}
