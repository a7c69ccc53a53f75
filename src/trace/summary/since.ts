/** The `--since` of `traces summary`: an absolute date or an age. */

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `2026-12-01`, `2026-12-01T08:00`, `2026-12-01T08:00:00Z`, `...+02:00`: an ISO 8601 date or date-time. */
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Epoch milliseconds from `--since`: an ISO date or date-time (a date alone is midnight UTC, a
 * date-time without an offset is UTC too, so the same flag means the same instant on every
 * machine), or an age before `now` such as `90m`, `24h`, `7d`, `2w` (units s, m, h, d, w).
 * Returns null for anything else (the command reports it as a usage error).
 */
export function parseSince(raw: string, now: number): number | null {
  const text = raw.trim();
  const age = /^(\d{1,9})([smhdw])$/.exec(text);
  if (age) return now - Number(age[1]) * UNIT_MS[age[2]];
  const date = ISO_DATE.exec(text);
  if (!date) return null;
  const [, day, time, offset] = date;
  // Date.parse rolls 2026-02-30 over into March: the day must exist in its month.
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return null;
  const ms = time === undefined ? midnight : Date.parse(`${day}T${time}${offset ?? "Z"}`);
  return Number.isFinite(ms) ? ms : null;
}
