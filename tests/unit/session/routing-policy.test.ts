/**
 * The balancer's policies and what it learns, pure: round-robin, seeded
 * random, and sticky by `Mcp-Name` from the CreateTaskResults it forwarded (T19).
 */
import { describe, expect, it } from 'vitest';
import { NodePicker } from '../../../src/session/cluster/routing-policy.ts';
import { TaskPlacement } from '../../../src/session/cluster/task-placement.ts';

const get = (taskId: string) => ({ method: 'tasks/get', mcpName: taskId });
const call = { method: 'tools/call', mcpName: 'slow_compute' };
const nobody = (): undefined => undefined;

describe('routing policies', () => {
  it('T19: round-robin takes each live node in turn, skipping dead ones', () => {
    const picker = new NodePicker(1);
    const picks = [1, 2, 3, 4, 5, 6].map(() => picker.pick('round-robin', call, [1, 2, 3], nobody));
    expect(picks).toEqual([1, 2, 3, 1, 2, 3]);
    // Node 2 down: the turn goes on from the last node picked.
    expect(picker.pick('round-robin', call, [1, 3], nobody)).toBe(1);
    expect(picker.pick('round-robin', call, [1, 3], nobody)).toBe(3);
    expect(picker.pick('round-robin', call, [], nobody)).toBeUndefined();
  });

  it('T19: random picks live nodes only, and the same seed draws the same nodes', () => {
    const draw = (seed: number) => {
      const picker = new NodePicker(seed);
      return Array.from({ length: 40 }, () => picker.pick('random', call, [2, 4, 5], nobody));
    };
    const picks = draw(42);
    expect(new Set(picks)).toEqual(new Set([2, 4, 5]));
    expect(draw(42)).toEqual(picks);
    expect(draw(43)).not.toEqual(picks);
  });

  it("T19: sticky sends tasks/* to the task's node by Mcp-Name, anything else round-robin", () => {
    const picker = new NodePicker(1);
    const holderOf = (taskId: string) => (taskId === 'a' ? 2 : undefined);
    expect([1, 2, 3].map(() => picker.pick('sticky', get('a'), [1, 2, 3], holderOf))).toEqual([
      2, 2, 2,
    ]);
    for (const method of ['tasks/update', 'tasks/cancel'])
      expect(picker.pick('sticky', { method, mcpName: 'a' }, [1, 2, 3], holderOf)).toBe(2);
    expect([1, 2].map(() => picker.pick('sticky', call, [1, 2, 3], holderOf))).toEqual([1, 2]);
    // A task nobody placed goes round-robin too.
    expect(picker.pick('sticky', get('b'), [1, 2, 3], holderOf)).toBe(3);
  });

  it('T19: sticky re-routes a task whose node is down to another node (which may not hold it)', () => {
    const picker = new NodePicker(1);
    const holderOf = (): number => 2;
    expect(picker.pick('sticky', get('a'), [1, 3], holderOf)).toBe(1);
    expect(picker.pick('sticky', get('a'), [1, 3], holderOf)).toBe(3);
  });
});

describe('task placement', () => {
  it('T7, T19: learns a task from the CreateTaskResult a node sent, and nothing else', () => {
    const placement = new TaskPlacement();
    placement.learn(
      { jsonrpc: '2.0', id: 1, result: { resultType: 'task', taskId: 't1', status: 'working' } },
      3,
    );
    placement.learn({ jsonrpc: '2.0', id: 2, result: { taskId: 't2', status: 'working' } }, 1);
    placement.learn({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'nope' } }, 1);
    placement.learn({ jsonrpc: '2.0', method: 'notifications/tasks', params: { taskId: 't3' } }, 2);
    expect(placement.holderOf('t1')).toBe(3);
    expect(placement.holderOf('t2')).toBeUndefined();
    expect(placement.holderOf('t3')).toBeUndefined();
  });
});
