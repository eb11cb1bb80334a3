/**
 * The Cluster panel's verdict (T19): correct deployments say why; per-node
 * memory behind a balancer that does not route by Mcp-Name says it is
 * broken, that per-node memory is the single server's starting store, and
 * offers the shared store as the fix.
 */
import { describe, expect, it } from 'vitest';
import { clusterVerdict } from '../../../src/ui/state/cluster-verdict.ts';

describe('the cluster verdict', () => {
  it('T19: per-node memory behind round-robin or random is broken, says why it is the store, and offers the shared store', () => {
    for (const policy of ['round-robin', 'random'] as const) {
      const verdict = clusterVerdict({ count: 3, store: 'memory', policy });
      expect(verdict.ok).toBe(false);
      expect(verdict.fix).toBe('indexeddb');
      expect(verdict.text).toMatch(/its own memory \(the store the single server starts with\)/);
      expect(verdict.text).toMatch(/-32602/);
      expect(verdict.text).toMatch(/Switch the store to one shared store/);
    }
  });

  it('T19: a shared store, sticky routing, or one node is correct, with nothing to fix', () => {
    const shapes = [
      { count: 3, store: 'indexeddb', policy: 'round-robin' },
      { count: 2, store: 'memory', policy: 'sticky' },
      { count: 1, store: 'memory', policy: 'round-robin' },
    ] as const;
    for (const shape of shapes) {
      const verdict = clusterVerdict(shape);
      expect(verdict).toMatchObject({ ok: true });
      expect(verdict.fix).toBeUndefined();
    }
    expect(clusterVerdict(shapes[1]).text).toMatch(/until a task's node dies/);
  });
});
