import { setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { taskLifecycleMachine } from '../../../src/machines/task-lifecycle.ts';
import { layoutLifecycle } from '../../../src/ui/statechart/lifecycle-diagram.ts';

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the first screen draws the lifecycle from its machine', () => {
  const diagram = layoutLifecycle(machineGraph(taskLifecycleMachine));

  it('T6, T9: one box per status, the terminal ones drawn final, working the initial one', () => {
    expect(diagram.boxes.map((b) => [b.status, b.final])).toEqual([
      ['working', false],
      ['input_required', false],
      ['completed', true],
      ['failed', true],
      ['cancelled', true],
    ]);
    expect(diagram.boxes.filter((b) => b.initial).map((b) => b.status)).toEqual(['working']);
  });

  it('T11, T13, T17: each final is reached from the running states by the events the machine names', () => {
    const into = (status: string) =>
      diagram.arrows.find((a) => a.to === `lifecycle.${status}`)?.events;
    expect(into('completed')).toEqual(['job.returnedResult']);
    expect(into('failed')).toEqual(['job.raisedProtocolError', 'ttl.passed']);
    expect(into('cancelled')).toEqual(['job.honouredCancel']);
    for (const arrow of diagram.arrows.filter((a) => /completed|failed|cancelled/.test(a.to)))
      expect(arrow.from.sort()).toEqual(['lifecycle.input_required', 'lifecycle.working']);
  });

  it('T14, T15: input is asked and answered between the running states; more questions stay', () => {
    const between = diagram.arrows.filter((a) => !a.to.match(/completed|failed|cancelled/));
    expect(between.map((a) => [a.from[0], a.to, a.events[0]])).toEqual([
      ['lifecycle.working', 'lifecycle.input_required', 'job.askedForInput'],
      ['lifecycle.input_required', 'lifecycle.working', 'input.allAnswered'],
    ]);
    expect(diagram.boxes.find((b) => b.status === 'input_required')?.selfLoops).toEqual([
      'job.askedForInput',
    ]);
  });

  it.each([false, true])(
    'draws no box over another, all inside the drawing (stacked: %s)',
    (stacked) => {
      const drawn = layoutLifecycle(machineGraph(taskLifecycleMachine), { stacked });
      for (const [i, a] of drawn.boxes.entries()) {
        expect(a.x).toBeGreaterThanOrEqual(0);
        expect(a.x + a.width).toBeLessThanOrEqual(drawn.width);
        expect(a.y + a.height).toBeLessThanOrEqual(drawn.height);
        for (const b of drawn.boxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
      }
    },
  );

  it('stacked for a phone: the finals under the running states, narrow enough to draw at full size', () => {
    const drawn = layoutLifecycle(machineGraph(taskLifecycleMachine), { stacked: true });
    const live = drawn.boxes.filter((b) => !b.final);
    const lowestLive = Math.max(...live.map((b) => b.y + b.height));
    for (const box of drawn.boxes.filter((b) => b.final)) expect(box.y).toBeGreaterThan(lowestLive);
    expect(drawn.width).toBeLessThan(360);
    expect(drawn.arrows.map((a) => a.events)).toEqual(diagram.arrows.map((a) => a.events));
  });

  it('a state added to the machine appears with no other change', () => {
    const bigger = setup({}).createMachine({
      id: 'lifecycle',
      initial: 'working',
      states: {
        working: { on: { done: 'completed', lost: 'forgotten' } },
        completed: { type: 'final' },
        forgotten: { type: 'final' },
      },
    });
    const drawn = layoutLifecycle(machineGraph(bigger));
    expect(drawn.boxes.map((b) => b.status)).toEqual(['working', 'completed', 'forgotten']);
    expect(drawn.arrows.map((a) => a.events)).toEqual([['done'], ['lost']]);
    expect(drawn.liveFrame).toBeUndefined();
  });
});

type Point = { x: number; y: number };
/** Whether segments ab and cd cross at a point inside both (touching ends or running along each other is no crossing). */
function cross(a: Point, b: Point, c: Point, d: Point): boolean {
  const side = (p: Point, q: Point, r: Point): number =>
    Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  const [d1, d2, d3, d4] = [side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)];
  return d1 * d2 < 0 && d3 * d4 < 0;
}
const segments = (points: Point[]): [Point, Point][] =>
  points.slice(1).map((p, i) => [points[i]!, p]);

describe('one drawing for the first screen, the cards and the detail', () => {
  const forms = [
    { stacked: false, labels: true },
    { stacked: true, labels: true },
    { stacked: false, labels: false },
  ];

  it.each(forms)('T9: no two arrows cross (%o)', (form) => {
    const drawn = layoutLifecycle(machineGraph(taskLifecycleMachine), form);
    const all = drawn.arrows.flatMap((a, i) => segments(a.points).map((s) => ({ i, s })));
    for (const [k, one] of all.entries())
      for (const other of all.slice(k + 1))
        if (one.i !== other.i)
          expect(cross(one.s[0], one.s[1], other.s[0], other.s[1])).toBe(false);
  });

  it.each(forms)('T9: no arrow runs through a box it does not start or end at (%o)', (form) => {
    const drawn = layoutLifecycle(machineGraph(taskLifecycleMachine), form);
    for (const arrow of drawn.arrows)
      for (const box of drawn.boxes.filter((b) => b.id !== arrow.to && !arrow.from.includes(b.id)))
        for (const [a, b] of segments(arrow.points)) {
          const corners = [
            { x: box.x, y: box.y },
            { x: box.x + box.width, y: box.y },
            { x: box.x + box.width, y: box.y + box.height },
            { x: box.x, y: box.y + box.height },
          ];
          for (const [c, d] of segments([...corners, corners[0]!]))
            expect(cross(a, b, c, d)).toBe(false);
        }
  });

  it('compact, for a card: the same boxes and arrows, no labels, small enough for a 390 px card', () => {
    const full = layoutLifecycle(machineGraph(taskLifecycleMachine));
    const compact = layoutLifecycle(machineGraph(taskLifecycleMachine), { labels: false });
    expect(compact.boxes.map((b) => [b.status, b.final])).toEqual(
      full.boxes.map((b) => [b.status, b.final]),
    );
    // The events stay on each arrow (the chart's accessible name reads them).
    expect(compact.arrows.map((a) => [a.to, a.events])).toEqual(
      full.arrows.map((a) => [a.to, a.events]),
    );
    expect(compact.width).toBeLessThan(370);
    expect(compact.height).toBeLessThan(full.height);
  });
});
