/**
 * The PostgreSQL store's grouped reads (src/server/pg/grouped-reads.ts):
 * polls asked for while a query runs go together in the next one, and no
 * read is answered from a query that started before it was asked for.
 */
import { describe, expect, it } from 'vitest';
import { GroupedReads } from '../../../src/server/pg/grouped-reads.ts';

/** A read whose queries the test finishes by hand, recording what each asked for. */
function heldReads() {
  const queries: { ids: readonly string[]; finish(rows: Map<string, string> | Error): void }[] = [];
  const reads = new GroupedReads(
    (ids) =>
      new Promise((resolve, reject) =>
        queries.push({
          ids,
          finish: (rows) => (rows instanceof Error ? reject(rows) : resolve(rows)),
        }),
      ),
  );
  return { reads, queries };
}

describe('grouped reads', () => {
  it('T10: reads asked for during a query go together in the next one, each answered with its own task', async () => {
    const { reads, queries } = heldReads();
    const first = reads.get('a');
    expect(queries.map((q) => q.ids)).toEqual([['a']]);
    const later = [reads.get('b'), reads.get('a'), reads.get('c')];
    // Still one query: the three wait for the first to end.
    expect(queries).toHaveLength(1);
    queries[0]!.finish(new Map([['a', 'a@1']]));
    expect(await first).toBe('a@1');
    await expect.poll(() => queries.length).toBe(2);
    expect(queries[1]!.ids).toEqual(['b', 'a', 'c']);
    queries[1]!.finish(
      new Map([
        ['a', 'a@2'],
        ['b', 'b@2'],
      ]),
    );
    // 'a' asked again after the first query started: answered from the second, newer one.
    expect(await Promise.all(later)).toEqual(['b@2', 'a@2', undefined]);
  });

  it('T8: a read asked for after a write ended sees it: no read is answered from an older query', async () => {
    const { reads, queries } = heldReads();
    const before = reads.get('t');
    // The write lands while the first query runs; a read asked for now must not share it.
    const after = reads.get('t');
    queries[0]!.finish(new Map());
    expect(await before).toBeUndefined();
    await expect.poll(() => queries.length).toBe(2);
    queries[1]!.finish(new Map([['t', 'stored']]));
    expect(await after).toBe('stored');
  });

  it('a failed query rejects its own reads only; the next query still runs', async () => {
    const { reads, queries } = heldReads();
    const failing = reads.get('a');
    const next = reads.get('b');
    queries[0]!.finish(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await expect.poll(() => queries.length).toBe(2);
    queries[1]!.finish(new Map([['b', 'b@1']]));
    expect(await next).toBe('b@1');
  });
});
