/**
 * One graph per machine definition: every task actor of a follower runs the
 * same provided machine, so the graph (and its layout) is built once.
 */
import type { AnyStateNode } from 'xstate';
import { machineGraph, type MachineGraph } from '../../machines/machine-graph.ts';

const graphs = new WeakMap<AnyStateNode, MachineGraph>();

/** The graph of the machine an actor runs (`actor.logic`), built on first use. */
export function graphOf(machine: { root: AnyStateNode }): MachineGraph {
  let graph = graphs.get(machine.root);
  if (!graph) {
    graph = machineGraph(machine);
    graphs.set(machine.root, graph);
  }
  return graph;
}
