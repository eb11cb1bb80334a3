/** Small, pure formatting helpers for the UI. */

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Local wall-clock time with milliseconds: `14:03:07.123`. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A duration for countdowns: `4m 58s`, `12s`, `0.4s`. */
export function duration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 10_000) return `${(abs / 1000).toFixed(1)}s`;
  const s = Math.round(abs / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${pad(s % 60)}s`;
  return `${Math.floor(m / 60)}h ${pad(m % 60)}m`;
}

/** Pretty JSON for display; never throws. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Splits text on Markdown code spans (`like this`), so a tool's description
 * can show them as code while staying plain text: nothing else is parsed.
 */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  return text
    .split(/`([^`]+)`/)
    .map((part, i) => ({ text: part, code: i % 2 === 1 }))
    .filter((part) => part.text !== '');
}

/** `count` and the noun, plural unless the count is one: "1 fault", "3 faults". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * A JSON-RPC id as the wire log and the sequence view show it: `#3` for the
 * page's own client. A side connection (the x-ray, a second connection,
 * another identity) numbers its requests from 1 as well, so its ids carry
 * its name, `x-ray:1`, and never read like the page's own.
 */
export function requestIdText(
  id: string | number | null | undefined,
  connection: string | undefined,
): string {
  if (id === undefined || id === null) return '';
  return connection === undefined ? `#${String(id)}` : `${connection}:${String(id)}`;
}
