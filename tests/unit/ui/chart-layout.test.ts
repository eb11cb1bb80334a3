/**
 * The elk layout of the task machine, in Node: every state gets a box inside
 * its parent's, siblings do not overlap, every transition gets a route and a
 * label, and the layout is computed once per graph.
 */
import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import { layoutGraph, layoutOnce, type Box } from '../../../src/ui/statechart/chart-layout.ts';
import { inThreadEngine } from '../../../src/ui/statechart/elk-engine.ts';

const inside = (inner: Box, outer: Box): boolean =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('layout of the task machine', async () => {
  const graph = machineGraph(taskMachine);
  const engine = inThreadEngine();
  const layout = await layoutGraph(graph, engine);
  const box = new Map(layout.nodes.map((n) => [n.id, n]));

  it('places every state of the graph, children inside their parent', () => {
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    for (const node of graph.nodes) {
      const own = box.get(node.id)!;
      expect(own.width).toBeGreaterThan(0);
      if (node.parent)
        expect(inside(own, box.get(node.parent)!), `${node.id} inside ${node.parent}`).toBe(true);
    }
  });

  it('does not overlap sibling states', () => {
    for (const node of graph.nodes) {
      const siblings = node.children.map((id) => box.get(id)!);
      for (let i = 0; i < siblings.length; i++)
        for (let j = i + 1; j < siblings.length; j++)
          expect(
            overlap(siblings[i]!, siblings[j]!),
            `${siblings[i]!.id} / ${siblings[j]!.id}`,
          ).toBe(false);
    }
  });

  it('routes every transition and places its label', () => {
    expect(layout.edges.map((e) => e.id).sort()).toEqual(graph.edges.map((e) => e.id).sort());
    for (const edge of layout.edges) {
      expect(edge.points.length, edge.id).toBeGreaterThanOrEqual(2);
      expect(edge.labelBox, edge.id).toBeDefined();
      expect(edge.lines[0]?.startsWith(graph.edges.find((e) => e.id === edge.id)!.event)).toBe(
        true,
      );
    }
    // One initial marker per compound state.
    expect(layout.initials.map((i) => i.parent).sort()).toEqual(
      graph.nodes
        .filter((n) => n.initial)
        .map((n) => n.id)
        .sort(),
    );
  });

  it('is laid out once per graph', () => {
    expect(layoutOnce(graph, engine)).toBe(layoutOnce(graph, engine));
  });
});
