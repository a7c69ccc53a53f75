/**
 * A domain as every layer compares it: trimmed and lower-cased, null when blank or absent. The one
 * place domains are normalised: corpus frontmatter, a forced `domain` of a lookup (tool, graph,
 * retriever, CLI), the hints' domain filter and the eval assertions all go through it, so that L0,
 * L1 and the schema's enum agree on one spelling.
 */
export function normalizeDomain(domain: string | null | undefined): string | null {
  return domain?.trim().toLowerCase() || null;
}
