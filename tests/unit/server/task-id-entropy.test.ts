/**
 * T20: task ids are unguessable because they are 128 random bits. Checked
 * by what random bits do (every bit balanced, no two bits linked, every byte
 * uniform, no shared prefixes), over ids the real server handed out and over
 * many more from the generator it uses; and the checks are shown to reject
 * ids that only look random.
 */
import { describe, expect, it } from 'vitest';
import { newTaskId } from '../../../src/server/identity.ts';
import { CreateTaskResultSchema } from '../../../src/protocol/task.ts';
import { createHarness } from '../helpers/harness.ts';
import { asTaskId, entropyProblems, idBytes } from '../helpers/id-entropy.ts';

/** Enough ids from the generator for 6-sigma bounds to catch small biases. */
const MANY = 4096;
/** Enough ids for 6-sigma bounds that a counter, a clock or 32 random bits miss by far (several times over). */
const IMPOSTOR_IDS = 1024;

/** 16 bytes with `value` written big-endian into the last `width` bytes. */
function bigEndian(value: bigint, width = 16): Uint8Array {
  const bytes = new Uint8Array(16);
  for (let i = 15; i >= 16 - width; i--, value >>= 8n) bytes[i] = Number(value & 0xffn);
  return bytes;
}

const random32 = (): Uint8Array => crypto.getRandomValues(new Uint8Array(4));

/** Id makers that look random at a glance but are not 128 random bits. */
const IMPOSTORS: Record<string, (i: number) => Uint8Array> = {
  'a counter': (i) => bigEndian(BigInt(i + 1)),
  'a counter from a random start': (i) => bigEndian(0x5f3a9c0e7d21b4a6n + BigInt(i)),
  'a millisecond timestamp and a counter': (i) => {
    const bytes = bigEndian(BigInt(Date.now() + (i >> 4)) << 16n);
    bytes[15] = i & 0xff;
    return bytes;
  },
  '32 random bits, zero-padded': () => padded(),
  '32 random bits, repeated four times': () => {
    const word = random32();
    return Uint8Array.from({ length: 16 }, (_, i) => word[i % 4]!);
  },
};

function padded(): Uint8Array {
  const bytes = new Uint8Array(16);
  bytes.set(random32(), 12);
  return bytes;
}

describe('task ids (T20)', () => {
  it('T20: task ids are unguessable: 128 random bits, each balanced, none linked to another, no shared prefix', async () => {
    const h = await createHarness();
    const fromServer: string[] = [];
    for (let i = 0; i < 128; i++) {
      const handle = await h.client.request(
        'tools/call',
        { name: 'slow_compute', arguments: { seconds: 0 } },
        { tasks: true },
      );
      fromServer.push(CreateTaskResultSchema.parse(handle).taskId);
    }
    await h.close();
    expect(entropyProblems(fromServer)).toEqual([]);
    const generated = Array.from({ length: MANY }, newTaskId);
    expect(entropyProblems(generated)).toEqual([]);
  });

  it('T20: the checks reject ids that only look random: a counter, a clock, 32 random bits padded or repeated', () => {
    for (const [name, make] of Object.entries(IMPOSTORS)) {
      const ids = Array.from({ length: IMPOSTOR_IDS }, (_, i) => asTaskId(make(i)));
      // They pass what the old test checked: the format, and all distinct (bar 32-bit collisions).
      expect(
        ids.every((id) => idBytes(id) !== undefined),
        name,
      ).toBe(true);
      expect(entropyProblems(ids), name).not.toEqual([]);
    }
  });

  it('T20, T19: an id is exactly 128 bits in canonical base64url, safe in a header', () => {
    const id = newTaskId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(idBytes(id)).toHaveLength(16);
    // The last character's low 4 bits are padding: a non-zero one would be a second spelling of an id.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const otherSpelling = id.slice(0, 21) + alphabet[alphabet.indexOf(id.at(-1)!) ^ 1];
    expect(idBytes(otherSpelling)).toBeUndefined();
  });
});
