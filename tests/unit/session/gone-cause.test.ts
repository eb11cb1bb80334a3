import { describe, expect, it } from 'vitest';
import { goneCause, goneCauseText, type GoneFacts } from '../../../src/session/gone-cause.ts';

const facts = (over: Partial<GoneFacts>): GoneFacts => ({
  answeredBy: 1,
  heardFrom: 1,
  store: 'memory',
  goneAt: 10_000,
  expiresAt: undefined,
  origin: 'handle',
  askedAs: 'learner',
  createdOver: undefined,
  ...over,
});

describe('why a followed task answered -32602', () => {
  it('T13: heard from worker #1 in memory, answered by worker #2: the in-memory server restarted', () => {
    const cause = goneCause(facts({ heardFrom: 1, answeredBy: 2 }));
    expect(cause).toEqual({ kind: 'restarted', heardFrom: 1, answeredBy: 2 });
    expect(goneCauseText(cause)).toMatch(/server restarted.*#1.*#2/);
  });

  it('C1: the restart of an in-memory server cites the rule it breaks (state lives where the server can read it), not the TTL rule', () => {
    const text = goneCauseText(goneCause(facts({ heardFrom: 1, answeredBy: 2 })));
    expect(text).toContain('(C1)');
    expect(text).not.toContain('T13');
  });

  it('T19: per-node memory: node 1 reported it, node 2 answered -32602: another node, named as such', () => {
    const cause = goneCause(facts({ nodes: { heardFrom: 1, answeredBy: 2 } }));
    expect(cause).toEqual({ kind: 'other-node', heardFrom: 1, answeredBy: 2 });
    const text = goneCauseText(cause);
    expect(text).toMatch(/another node answered\. Node 1 reported it.*node 2/);
    expect(text).toContain('(T19, C1)');
    expect(text).not.toContain('cannot tell');
    // The same node answering, or a shared store (T8's early handle, say), is no such cause.
    expect(goneCause(facts({ nodes: { heardFrom: 2, answeredBy: 2 } })).kind).toBe('unknown');
    expect(
      goneCause(facts({ store: 'indexeddb', nodes: { heardFrom: 1, answeredBy: 2 } })).kind,
    ).toBe('unknown');
  });

  it('T13: the same restart on IndexedDB proves nothing (the store outlives the worker); a passed TTL does', () => {
    expect(goneCause(facts({ heardFrom: 1, answeredBy: 2, store: 'indexeddb' }))).toEqual({
      kind: 'unknown',
    });
    const ttl = goneCause(
      facts({ store: 'indexeddb', heardFrom: 1, answeredBy: 2, expiresAt: 4_000, goneAt: 9_000 }),
    );
    expect(ttl).toEqual({ kind: 'ttl', expiredAt: 4_000, goneAt: 9_000 });
    expect(goneCauseText(ttl)).toContain('TTL had run out 5 s before this answer');
  });

  it('T13: the TTL purge on the same worker, with the TTL passed before the answer', () => {
    expect(goneCause(facts({ expiresAt: 8_000, goneAt: 12_000 })).kind).toBe('ttl');
    // Still within its TTL: the page cannot say why.
    expect(goneCause(facts({ expiresAt: 20_000, goneAt: 12_000 })).kind).toBe('unknown');
  });

  it("T20: a task created over another connection as another identity: that identity's task, and the policy named as policy", () => {
    const cause = goneCause(
      facts({ heardFrom: undefined, createdOver: { connection: 'bob', identity: 'bob' } }),
    );
    expect(cause).toEqual({
      kind: 'identity',
      createdBy: 'bob',
      createdAs: 'bob',
      askedAs: 'learner',
    });
    expect(goneCauseText(cause)).toContain("this server's policy");
    // Another connection as the same identity is no such cause.
    expect(
      goneCause(
        facts({ answeredBy: 2, createdOver: { connection: 'second', identity: 'learner' } }),
      ).kind,
    ).toBe('restarted');
  });

  it("M5: followed by id, never heard of by this tab's in-memory worker: another tab's worker", () => {
    const cause = goneCause(facts({ heardFrom: undefined, origin: 'by-id' }));
    expect(cause).toEqual({ kind: 'other-tab', answeredBy: 1 });
    expect(goneCauseText(cause)).toContain("another tab's server worker");
  });

  it('T12: resumed after a load and never heard from this page: an earlier page kept it in its worker', () => {
    expect(goneCause(facts({ heardFrom: undefined, origin: 'resumed', answeredBy: 3 }))).toEqual({
      kind: 'earlier-page',
      answeredBy: 3,
    });
  });
});
