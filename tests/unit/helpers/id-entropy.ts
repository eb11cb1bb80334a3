/**
 * Statistical checks that a set of task ids carries 128 independent, uniform
 * random bits (T20), rather than merely looking like it. Each check would
 * pass random ids except with a vanishing probability (bounds at 6 standard
 * deviations, false alarm well under 1 in 10,000 per run) and fails ids
 * made from a counter, a timestamp, or 32 random bits padded or repeated to
 * 128; `tests/unit/server/task-id-entropy.test.ts` shows each failing.
 */

export const ID_BITS = 128;
/** How far (in standard deviations) a count may stray from what uniform random bits give. */
const SIGMAS = 6;
/** Random ids sharing this many leading bits is about as likely as guessing a 48-bit number. */
const PREFIX_BITS = 48;

/** The 16 bytes a base64url task id stands for, or undefined if it is not exactly 128 bits in canonical form. */
export function idBytes(id: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return undefined;
  const binary = atob(id.replaceAll('-', '+').replaceAll('_', '/') + '==');
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // 22 characters carry 132 bits: the last 4 must be zero, or two spellings would name one id.
  const canonical = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return bytes.length === 16 && canonical === id ? bytes : undefined;
}

const bitOf = (bytes: Uint8Array, position: number): number =>
  (bytes[position >> 3]! >> (7 - (position & 7))) & 1;

/** Each bit position, as a bit set over the ids (bit k of column p = bit p of id k). */
function columns(ids: readonly Uint8Array[]): Uint32Array[] {
  const words = Math.ceil(ids.length / 32);
  return Array.from({ length: ID_BITS }, (_, p) => {
    const column = new Uint32Array(words);
    ids.forEach((bytes, k) => {
      if (bitOf(bytes, p)) column[k >> 5]! |= 1 << (k & 31);
    });
    return column;
  });
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * What is wrong with `ids` as 128 random bits each; empty when nothing is.
 * Needs a few hundred ids at least: the bounds widen as the sample shrinks.
 */
export function entropyProblems(ids: readonly string[]): string[] {
  const problems: string[] = [];
  const decoded = ids.map(idBytes);
  const malformed = ids.filter((_, i) => decoded[i] === undefined);
  if (malformed.length > 0)
    return [`not 128 bits in base64url: ${malformed.slice(0, 3).join(', ')}`];
  const bytes = decoded as Uint8Array[];
  const n = bytes.length;
  if (new Set(ids).size !== n) problems.push('some ids repeat');

  // Every bit position is 1 about half the time (a counter's or a timestamp's high bits never are).
  const bound = SIGMAS * Math.sqrt(n / 4);
  const cols = columns(bytes);
  const ones = cols.map((c) => c.reduce((sum, w) => sum + popcount(w), 0));
  const skewed = ones.flatMap((count, p) => (Math.abs(count - n / 2) > bound ? [p] : []));
  if (skewed.length > 0)
    problems.push(`bit positions not balanced: ${skewed.slice(0, 8).join(', ')}`);

  // Every two positions agree about half the time: no bit follows another (32 random bits repeated fail).
  const linked: string[] = [];
  for (let p = 0; p < ID_BITS && linked.length < 8; p++)
    for (let q = p + 1; q < ID_BITS && linked.length < 8; q++) {
      let differ = 0;
      for (let w = 0; w < cols[p]!.length; w++) differ += popcount(cols[p]![w]! ^ cols[q]![w]!);
      if (Math.abs(differ - n / 2) > bound) linked.push(`${p}~${q}`);
    }
  if (linked.length > 0) problems.push(`bit positions move together: ${linked.join(', ')}`);

  // Each byte position takes its 256 values evenly (chi-square, 255 degrees of freedom).
  const expected = n / 256;
  const chiBound = 255 + SIGMAS * Math.sqrt(2 * 255);
  for (let b = 0; b < 16; b++) {
    const counts = new Array<number>(256).fill(0);
    for (const id of bytes) counts[id[b]!]!++;
    const chi = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    if (chi > chiBound) problems.push(`byte ${b} is not uniform (chi-square ${chi.toFixed(0)})`);
  }

  // No two ids share a long prefix (ids from one clock or one counter do).
  const sorted = [...bytes].sort((a, b) => compare(a, b));
  for (let i = 1; i < sorted.length; i++)
    if (sharedBits(sorted[i - 1]!, sorted[i]!) >= PREFIX_BITS) {
      problems.push(`two ids share their first ${PREFIX_BITS} bits`);
      break;
    }
  return problems;
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function sharedBits(a: Uint8Array, b: Uint8Array): number {
  for (let p = 0; p < ID_BITS; p++) if (bitOf(a, p) !== bitOf(b, p)) return p;
  return ID_BITS;
}

/** Encodes 16 bytes as a task id is spelled (base64url, no padding), for ids built by the checks' own tests. */
export function asTaskId(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
