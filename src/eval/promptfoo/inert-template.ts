/**
 * A string promptfoo renders back to itself: promptfoo runs every string var through nunjucks
 * (whose `{{ }}` can reach `process` through `constructor.constructor`) and loads, or for `.js`
 * and `.py` runs, a var that starts with `file://`. Golden sets come from many authors, so a
 * query must stay data: every `{` becomes `{{ "{" }}` (no tag can open inside the text), the `#`
 * of a stray `#}` too (nunjucks rejects it), and a leading `file://` loses its literal first letter
 * the same way. Pure; a no-op for text without `{` or `#}`.
 * @example inertTemplateText("{{ 7*7 }}") // '{{ "{" }}{{ "{" }} 7*7 }}', which renders to "{{ 7*7 }}"
 */
export function inertTemplateText(text: string): string {
  const escaped = text.replace(/\{|#(?=\})/g, (char) => `{{ "${char}" }}`);
  return escaped.startsWith("file://") ? `{{ "f" }}${escaped.slice(1)}` : escaped;
}
