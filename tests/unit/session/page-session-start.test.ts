/**
 * How a page starts: the server starts and the page connects while the
 * journal is still being read, so a resumed task's first tasks/get waits
 * for neither in turn (T12: polling resumes after a reload); and the kept
 * wire log still comes before anything the new page says.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageSession } from '../../../src/session/page-session.ts';
import type { StoredTask, StoredWireEntry } from '../../../src/store/page-store.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import { FAKE_TIMERS, Page, RealStack } from '../helpers/real-stack.ts';

/** A page store whose reads answer only once released, and which says what was asked. */
class HeldReads extends MemoryPageStore {
  readonly asked: string[] = [];
  #release: () => void = () => {};
  readonly #held = new Promise<void>((resolve) => (this.#release = resolve));

  release(): void {
    this.#release();
  }

  override async tasks(): Promise<StoredTask[]> {
    this.asked.push('tasks');
    await this.#held;
    return super.tasks();
  }

  override async wire(): Promise<StoredWireEntry[]> {
    this.asked.push('wire');
    await this.#held;
    return super.wire();
  }
}

describe('PageSession.start', () => {
  beforeEach(() => vi.useFakeTimers(FAKE_TIMERS));
  afterEach(() => vi.useRealTimers());

  it('T12: starts the server and connects before the journal answers, and asks both reads at once', async () => {
    const stack = new RealStack('memory', 1, { sweepIntervalMs: 0, adoptIntervalMs: 0 });
    const store = new HeldReads();
    await store.appendWire([{ at: 1, direction: 'out', message: { jsonrpc: '2.0', id: 1 } }]);
    const started = vi.spyOn(stack.endpoint, 'start');
    try {
      const session = new PageSession({
        endpoint: stack.endpoint,
        pageStore: store,
        seed: 7,
        preferences: undefined,
        clientName: 'property-page',
        wireBatchMs: 1000,
      });
      stack.pages.push(new Page(session, stack.ledger));
      const order: string[] = [];
      session.on('wire-restored', () => order.push('wire-restored'));
      session.on('wire', () => order.push('wire'));
      const starting = session.start();
      await stack.settle();
      // Nothing the page kept is read yet, and the server is already up and the page connected.
      expect(started).toHaveBeenCalledOnce();
      expect(session.connection.state).toBe('open');
      expect(store.asked.toSorted()).toEqual(['tasks', 'wire']);
      expect(order).toEqual([]);
      store.release();
      await stack.settle();
      await starting;
      // The kept rows come first; the tools/list this page sent, after them.
      expect(order[0]).toBe('wire-restored');
      expect(order.slice(1).length).toBeGreaterThan(0);
      expect(new Set(order.slice(1))).toEqual(new Set(['wire']));
    } finally {
      await stack.close();
    }
  });
});
