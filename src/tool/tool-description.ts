import { listDomains } from "../graph/domain-labels.js";

/**
 * The default description of the lookup tool, written for the model: what it searches (the
 * base's domains, at most 20 named, each cleaned to a short label since frontmatter is untrusted),
 * what it returns, and what to do with it, in line with the advice the tool's answers carry.
 * @example
 * createLookupKnowledgeTool({ knowledgeBase: kb, description: `${describeLookupKnowledge(kb.domains)} Prefer it over web search.` });
 */
export function describeLookupKnowledge(domains: readonly string[] = []): string {
  const listed = listDomains(domains);
  const scope = listed.length > 0 ? `the knowledge base (domains: ${listed})` : "the knowledge base";
  const topics = listed.length > 0 ? "on these topics" : "that the knowledge base may cover";
  return (
    `Search ${scope} and return the passages that best match as quoted evidence blocks, each with its source. ` +
    `Use it before answering questions ${topics}, and cite the \`source\` of each block you rely on. ` +
    "Each answer states its relevance: when it is low, answer only from blocks that do answer the question. " +
    "If it returns NO EVIDENCE, or no block answers the question, say the knowledge base does not cover it."
  );
}
