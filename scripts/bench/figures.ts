/**
 * What every bench part returns: figures, each with the reference it is
 * read against (measured in the same run, or a stated budget) and their
 * ratio, so runs on different machines compare by ratio, not by raw ms.
 */

/** One measured figure, beside its reference. */
export interface Figure {
  /** The part that measured it: `worker-roundtrip`, `node-host`, ... */
  part: string;
  name: string;
  value: number;
  unit: string;
  /** What the figure is read against; absent when there is none. */
  reference?: { name: string; value: number };
  /** value / reference.value, or NaN when there is no reference. */
  ratio: number;
  /** A word on how to read it, printed under the table. */
  note?: string;
}

/** A figure and its reference, with the ratio computed once here. */
export function figure(
  part: string,
  name: string,
  value: number,
  unit: string,
  reference?: { name: string; value: number },
  note?: string,
): Figure {
  return {
    part,
    name,
    value,
    unit,
    ...(reference ? { reference } : {}),
    ratio: reference && reference.value !== 0 ? value / reference.value : NaN,
    ...(note ? { note } : {}),
  };
}

/** The p-th percentile (nearest rank) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

function format(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '-';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** The figures as a plain-text table: part, figure, value, reference, ratio. */
export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.part,
    f.name,
    format(f.value, f.unit),
    f.reference ? `${f.reference.name}: ${format(f.reference.value, f.unit)}` : '',
    Number.isFinite(f.ratio) ? `${f.ratio.toFixed(2)}x` : '',
  ]);
  const head = ['part', 'figure', 'value', 'reference (same run)', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 2 || i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
