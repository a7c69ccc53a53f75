import type { JsonlTally } from "./documents-jsonl.js";

const SKIPPED = "lookup-knowledge: skipped ";

/** The line a skipped document's name (`document 3`, a source id, `id#page-2`) points to, or undefined. */
function lineOfName(name: string, tally: Pick<JsonlTally, "lineOfDocument" | "lineOfSource">): number | undefined {
  const position = /^document (\d+)$/.exec(name);
  if (position !== null) return tally.lineOfDocument[Number(position[1]) - 1];
  // A source id may hold `#` itself (a URL): try the whole name, then each part before a `#`.
  for (let end = name.length; end > 0; end = name.lastIndexOf("#", end - 1)) {
    const line = tally.lineOfSource.get(name.slice(0, end));
    if (line !== undefined) return line ?? undefined;
  }
  return undefined;
}

/**
 * A library skip line (`lookup-knowledge: skipped document 3: …`, counting documents as they were
 * handed on, or `lookup-knowledge: skipped handbook.md: …`, naming a source) said by the line its
 * document came from, when one line alone holds it; any other message as it is. The source id,
 * which the library checked as plain text, stays named. Pure.
 */
export function skipByLine(
  message: string,
  where: string,
  tally: Pick<JsonlTally, "lineOfDocument" | "lineOfSource">,
): string {
  if (!message.startsWith(SKIPPED)) return message;
  const rest = message.slice(SKIPPED.length);
  for (let colon = rest.indexOf(": "); colon !== -1; colon = rest.indexOf(": ", colon + 1)) {
    const name = rest.slice(0, colon);
    const line = lineOfName(name, tally);
    if (line === undefined) continue;
    const named = name.startsWith("document ") ? "" : ` (${name})`;
    return `lookup-knowledge: ${where} line ${line} skipped${named}: ${rest.slice(colon + 2)}`;
  }
  return message;
}
