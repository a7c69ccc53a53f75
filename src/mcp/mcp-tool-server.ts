import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LookupKnowledgeError } from "../errors.js";
import type { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import { refusalTraceOf } from "../tool/tool-refusal.js";
import { asTooManyCallsAnswer, type CallLane } from "./call-lane.js";
import { lookupResultSchema } from "./lookup-result-schema.js";
import { checkToolArguments } from "./tool-call-arguments.js";

/** The LangChain tool an MCP server serves. */
export type LookupKnowledgeToolInstance = ReturnType<typeof createLookupKnowledgeTool>;

/** Options of {@link createMcpToolHandler}. */
export interface McpToolHandlerOptions {
  /** The tool each call runs: its name, description and input schema (read at each `tools/list`) are what MCP clients see. */
  tool: LookupKnowledgeToolInstance;
  /** The server's name in the MCP handshake. @default "lookup-knowledge" */
  serverName?: string;
  /** The server's version in the MCP handshake. @default "0.0.0" */
  version?: string;
}

/** Serves one tool to any number of MCP server instances and knows which calls are in flight. */
export interface McpToolHandler {
  /**
   * A new MCP server with the tool registered (one per connection or, over stateless HTTP, per
   * request). With `lane`, its calls take turns in that caller's fair share: one over the lane's
   * bound answers JSON-RPC -32029 (`TOO_MANY_CALLS`) at once.
   */
  createServer(lane?: CallLane): Server;
  /** Tells the clients of every open server that the tool list changed (its description or schema followed a new generation). */
  toolsChanged(): void;
  /** Resolves once every call started so far has answered. */
  drain(): Promise<void>;
  /** Calls answering now. */
  readonly inFlight: number;
}

/** The error text an MCP client may see: this package's errors as they are (code and fix), anything else generic. */
export function mcpErrorText(error: unknown): string {
  if (error instanceof LookupKnowledgeError) return `${error.code}: ${error.message}`;
  return "lookup-knowledge: the lookup failed with an internal error; the server's operator can find it in the trace.";
}

/** A JSON-RPC -32602 answer whose message is `message` as it is (McpError would prefix it). */
const invalidParams = (message: string) => Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

/** `tools/call` as this handler reads it: any params, checked by the handler itself (so that a malformed call gets one line). */
const CALL_REQUEST = z.object({ method: z.literal("tools/call"), params: z.unknown() });
const OUTPUT_SCHEMA = z.toJSONSchema(lookupResultSchema, { io: "output", target: "draft-7" }) as Tool["outputSchema"];

/**
 * Wraps the `lookup_knowledge` tool for MCP: a call runs the tool exactly as a model's tool call
 * does (the same schema check, limits, escaping, trace line) and answers with the tool's text as
 * `content` and the {@link LookupResult} as `structuredContent` (described by `outputSchema`). A
 * failed lookup answers `isError` with one line; arguments the input schema refuses answer
 * JSON-RPC -32602 with one line and write a `refused` trace line. The scope is the tool's own
 * (trusted options), never the client's. `tools/list` describes the tool as it is when asked,
 * so it follows the generations of a followed base.
 */
export function createMcpToolHandler({
  tool,
  serverName = "lookup-knowledge",
  version = "0.0.0",
}: McpToolHandlerOptions): McpToolHandler {
  const running = new Set<Promise<unknown>>();
  const servers = new Set<Server>();
  let listed: { schema: unknown; json: Tool["inputSchema"] } | null = null;
  const definition = (): Tool => {
    if (listed === null || listed.schema !== tool.schema)
      listed = {
        schema: tool.schema,
        json: z.toJSONSchema(tool.schema, { io: "input", target: "draft-7" }) as Tool["inputSchema"],
      };
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: listed.json,
      outputSchema: OUTPUT_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  };
  const run = async (args: Record<string, unknown>, id: string, signal: AbortSignal): Promise<CallToolResult> => {
    try {
      // The MCP request id is the trace line's tool_call_id, as a model's tool call id is.
      const message = await tool.invoke({ type: "tool_call", id, name: tool.name, args }, { signal });
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      // The artifact as plain JSON: chunk contents are getters, which JSON keeps.
      const structuredContent = JSON.parse(JSON.stringify(message.artifact)) as Record<string, unknown>;
      return { content: [{ type: "text", text }], structuredContent };
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: mcpErrorText(error) }] };
    }
  };
  const call = async (params: unknown, requestId: string | number, signal: AbortSignal): Promise<CallToolResult> => {
    const startedAt = Date.now();
    const fields = typeof params === "object" && params !== null ? (params as Record<string, unknown>) : {};
    if (fields.name !== tool.name) throw invalidParams(`unknown tool: this server has one tool, ${tool.name}`);
    const checked = checkToolArguments(tool.schema, fields.arguments, tool.name);
    if (!checked.ok) {
      const identity = { toolCallId: String(requestId), runId: null, threadId: null };
      await refusalTraceOf(tool)({ ...checked.refusal, startedAt }, identity);
      throw invalidParams(mcpErrorText(checked.refusal.error));
    }
    return run(checked.args, String(requestId), signal);
  };
  return {
    createServer(lane) {
      const server = new Server({ name: serverName, version }, { capabilities: { tools: { listChanged: true } } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [definition()] }));
      // Protocol's registration, not Server's: Server's re-parses the call first and answers a
      // malformed one (`arguments: null`) with a many-line schema dump; `call` checks it in one line.
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the server as `this` below
      const register = Protocol.prototype.setRequestHandler as (
        this: Server,
        schema: typeof CALL_REQUEST,
        handler: (
          request: z.infer<typeof CALL_REQUEST>,
          extra: { requestId: string | number; signal: AbortSignal },
        ) => Promise<CallToolResult>,
      ) => void;
      register.call(server, CALL_REQUEST, (request, extra) => {
        const answer =
          lane === undefined
            ? call(request.params, extra.requestId, extra.signal)
            : lane.run(() => call(request.params, extra.requestId, extra.signal)).catch(asTooManyCallsAnswer);
        running.add(answer);
        void answer.then(
          () => running.delete(answer),
          () => running.delete(answer),
        );
        return answer;
      });
      servers.add(server);
      const previous = server.onclose;
      server.onclose = () => {
        servers.delete(server);
        previous?.();
      };
      return server;
    },
    toolsChanged() {
      for (const server of servers) void server.sendToolListChanged().catch(() => undefined);
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    get inFlight() {
      return running.size;
    },
  };
}
