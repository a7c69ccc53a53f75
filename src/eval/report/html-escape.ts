/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A p-value to four places, or "< 0.0001". */
export function formatP(p: number): string {
  return p < 0.0001 ? "&lt; 0.0001" : p.toFixed(4);
}

/** Milliseconds to two places (one above 100). */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "n/a";
  return ms >= 100 ? ms.toFixed(1) : ms.toFixed(2);
}
