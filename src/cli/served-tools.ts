import type { FollowedKnowledgeBase } from "../knowledge-base/followed-knowledge-base.js";
import type { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import { createMcpToolHandler, type McpToolHandler } from "../mcp/mcp-tool-server.js";
import { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import type { ServedScope } from "./group-scope.js";
import { scopeKey } from "./served-scopes.js";

/** The tool of one scope and its MCP handler. */
export interface ServedTool {
  lookup: ReturnType<typeof createLookupKnowledgeTool>;
  handler: McpToolHandler;
}

/** The tools `serve` serves: one per scope, so each audience sees its own domains in the schema and reads only its files. */
export interface ServedTools {
  /** The tool of `scope`, made on first use. */
  of(scope: ServedScope): ServedTool;
  /** Calls answering now, over every scope. */
  inFlight(): number;
  /** Tells every connected client that its tool list changed (a new generation). */
  toolsChanged(): void;
  /** Closes every tool's trace file. */
  close(): Promise<void>;
}

/** Options of {@link createServedTools}. */
export interface ServedToolsOptions {
  /** The base every tool reads. */
  knowledgeBase: KnowledgeBase | FollowedKnowledgeBase;
  /** The trace file; null for none. @default the tool's default trace path */
  tracePath?: string | null;
  /** The version the MCP handshake names. */
  version: string;
}

/** One tool and handler per scope, shared by every token of that scope. */
export function createServedTools({ knowledgeBase, tracePath, version }: ServedToolsOptions): ServedTools {
  const served = new Map<string, ServedTool>();
  return {
    of(scope) {
      const key = scopeKey(scope);
      let entry = served.get(key);
      if (entry === undefined) {
        const lookup = createLookupKnowledgeTool({
          knowledgeBase,
          ...(tracePath !== undefined ? { tracePath } : {}),
          ...(scope !== null ? { access: scope } : {}),
        });
        entry = { lookup, handler: createMcpToolHandler({ tool: lookup, version }) };
        served.set(key, entry);
      }
      return entry;
    },
    inFlight: () => [...served.values()].reduce((sum, entry) => sum + entry.handler.inFlight, 0),
    toolsChanged() {
      for (const entry of served.values()) entry.handler.toolsChanged();
    },
    async close() {
      await Promise.all([...served.values()].map((entry) => entry.lookup.close()));
    },
  };
}
