/**
 * The one bit of markup the learning texts use: `backticks` around exact
 * names (methods, fields, codes). Split into segments so the page renders
 * them as text and <code>, never as HTML.
 */

export type Segment = { code: boolean; text: string };

/** Splits `text` at backticks: odd-numbered pieces are code. An unpaired backtick stays text. */
export function segments(text: string): Segment[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ code: false, text }];
  return parts.map((part, i) => ({ code: i % 2 === 1, text: part })).filter((s) => s.text !== '');
}

/** The text without its backticks, as a screen reader or a search would read it. */
export function plainText(text: string): string {
  return segments(text)
    .map((s) => s.text)
    .join('');
}
