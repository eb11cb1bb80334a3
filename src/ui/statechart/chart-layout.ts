/**
 * Lays a machine graph out with elkjs (layered, hierarchical: parallel
 * regions and nested states are ELK compound nodes) and returns absolute
 * boxes, edge routes and label positions, ready to draw as SVG.
 *
 * A layout depends only on the machine definition, so it is computed once
 * per graph and cached (`layoutOnce`), never per frame or per task.
 */
import type { ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api.js';
import type {
  GraphNode,
  GraphNodeKind,
  GraphTransition,
  MachineGraph,
  TriggerKind,
} from '../../machines/machine-graph.ts';
import type { LayoutEngine } from './elk-engine.ts';

/** Text widths in px for a font size; the page measures with a canvas, Node estimates. */
export type MeasureText = (text: string, fontPx: number, bold?: boolean) => number;

/** Monospace estimate: every glyph is ~0.6em wide. */
export const estimateText: MeasureText = (text, fontPx, bold = false) =>
  text.length * fontPx * (bold ? 0.62 : 0.6);

export const FONT = { state: 12, label: 10.5, region: 11 } as const;
const LINE = 14;
const STATE_HEIGHT = 28;
const INITIAL_SIZE = 10;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutNode extends Box {
  id: string;
  key: string;
  /** The state's drawn name (`meta.label`, else its key). */
  label: string;
  kind: GraphNodeKind;
  region: boolean;
  depth: number;
  /** Lines under a state's name: what it does on entry (`entry / sendPoll`) and invokes (`invoke sendCancel`). */
  activities: string[];
  /** Lines under a compound's name: its targetless transitions. */
  notes: string[];
}

export interface LaidOutEdge {
  id: string;
  source: string;
  target: string;
  trigger: TriggerKind;
  /** The event, then `[guard]` on a second line when guarded. */
  lines: string[];
  /** Polyline, absolute. */
  points: { x: number; y: number }[];
  labelBox: Box | undefined;
}

/** The dot and arrow into a compound state's initial child. */
export interface LaidOutInitial {
  parent: string;
  target: string;
  cx: number;
  cy: number;
  points: { x: number; y: number }[];
}

export interface ChartLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
  initials: LaidOutInitial[];
  /** Wall time elk took, ms (the page reports it). */
  elapsedMs: number;
}

/**
 * The lines drawn on an edge: `event [guard]`, split in two only when long
 * (two-line labels everywhere make the chart taller than it gets narrower).
 */
export function edgeLines(edge: Pick<GraphTransition, 'event' | 'guard'>): string[] {
  if (!edge.guard) return [edge.event];
  const one = `${edge.event} [${edge.guard}]`;
  return one.length <= SPLIT_LABEL_AT ? [one] : [edge.event, `[${edge.guard}]`];
}

const SPLIT_LABEL_AT = 26;

/** What a state does while active: its entry actions (the tasks/get is sent so), then what it invokes. */
function activitiesOf(node: GraphNode): string[] {
  return [
    ...node.entry.map((action) => `entry / ${action}`),
    ...node.invokes.map((src) => `invoke ${src}`),
  ];
}

function noteText(t: GraphTransition): string {
  const guard = t.guard ? ` [${t.guard}]` : '';
  const actions = t.actions.length > 0 ? ` / ${t.actions.join(', ')}` : '';
  return `${t.event}${guard}${actions}`;
}

const initialId = (parent: string): string => `${parent}#initial`;

/**
 * With `INCLUDE_CHILDREN` the whole hierarchy is laid out in one pass, but
 * spacing and routing are read from each compound node: every one gets these.
 */
const SHARED_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.spacing.nodeNodeBetweenLayers': '16',
  'elk.spacing.nodeNode': '8',
  'elk.spacing.edgeNode': '6',
  'elk.spacing.edgeEdge': '4',
  'elk.spacing.edgeLabel': '2',
  'elk.layered.spacing.edgeNodeBetweenLayers': '6',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '4',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
  'elk.edgeLabels.placement': 'CENTER',
};

const ROOT_OPTIONS: LayoutOptions = {
  ...SHARED_OPTIONS,
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.json.shapeCoords': 'ROOT',
  'elk.json.edgeCoords': 'ROOT',
  'elk.padding': '[top=8,left=8,bottom=8,right=8]',
};

/** How a chart is laid out: `edgeLabels: false` is the compact form (a task card's). */
export interface LayoutOptionsOf {
  /** Place each transition's event as a label (default); without, arrows only, and a smaller chart. */
  edgeLabels?: boolean;
  /**
   * Break cycles depth first from the initial state, so it is drawn first and a
   * transition back to it (input answered -> `working`) is the one that points
   * backwards. (elk's MODEL_ORDER strategy throws on these graphs.)
   */
  definitionOrder?: boolean;
}

/** The ELK input graph for a machine graph (exported for tests). */
export function toElk(
  graph: MachineGraph,
  measure: MeasureText = estimateText,
  options: LayoutOptionsOf = {},
): ElkNode {
  const withLabels = options.edgeLabels ?? true;
  const ordered: LayoutOptions = options.definitionOrder
    ? {
        'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
      }
    : {};
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const edges: ElkExtendedEdge[] = [];

  const build = (node: GraphNode): ElkNode => {
    const children = node.children
      .map((id) => byId.get(id))
      .filter((n): n is GraphNode => n !== undefined);
    if (children.length === 0) {
      // Under the name: what it does on entry and invokes, then what it handles without leaving.
      const lines = [...activitiesOf(node), ...node.internal.map(noteText)];
      const linesWidth = Math.max(0, ...lines.map((line) => measure(line, FONT.label)));
      return {
        id: node.id,
        width: Math.ceil(Math.max(measure(node.label, FONT.state, true), linesWidth) + 22),
        height: STATE_HEIGHT + lines.length * LINE,
      };
    }
    const notes = node.internal.map(noteText);
    const header = 20 + notes.length * LINE;
    const headerWidth =
      Math.max(measure(node.key, FONT.region, true), ...notes.map((n) => measure(n, FONT.label))) +
      24;
    const elkChildren = children.map(build);
    if (node.initial) {
      elkChildren.unshift({ id: initialId(node.id), width: INITIAL_SIZE, height: INITIAL_SIZE });
      edges.push({
        id: `${node.id}#initial-edge`,
        sources: [initialId(node.id)],
        targets: [node.initial],
      });
    }
    return {
      id: node.id,
      children: elkChildren,
      layoutOptions: {
        ...SHARED_OPTIONS,
        ...ordered,
        'elk.padding': `[top=${header + 6},left=10,bottom=10,right=10]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${Math.ceil(headerWidth)}, ${header + 20})`,
      },
    };
  };

  const root = byId.get(graph.rootId);
  if (!root) throw new Error(`graph has no root node ${graph.rootId}`);
  const top = build(root);
  for (const edge of graph.edges) {
    const lines = edgeLines(edge);
    const width = Math.max(...lines.map((line) => measure(line, FONT.label)));
    edges.push({
      id: edge.id,
      sources: [edge.source],
      targets: [edge.target ?? edge.source],
      labels: !withLabels
        ? []
        : [
            {
              id: `${edge.id}#label`,
              text: lines.join('\n'),
              width: Math.ceil(width + 6),
              height: lines.length * LINE,
            },
          ],
    });
  }
  return { id: '#canvas', layoutOptions: { ...ROOT_OPTIONS, ...ordered }, children: [top], edges };
}

/** Reads ELK's answer back into drawable shapes (absolute coordinates). */
export function fromElk(graph: MachineGraph, laidOut: ElkNode, elapsedMs: number): ChartLayout {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const nodes: LaidOutNode[] = [];
  const initials: LaidOutInitial[] = [];
  const initialDots = new Map<string, { cx: number; cy: number }>();

  const walk = (elk: ElkNode, depth: number): void => {
    for (const child of elk.children ?? []) {
      const box = {
        x: child.x ?? 0,
        y: child.y ?? 0,
        width: child.width ?? 0,
        height: child.height ?? 0,
      };
      if (child.id.endsWith('#initial')) {
        initialDots.set(child.id.slice(0, -'#initial'.length), {
          cx: box.x + box.width / 2,
          cy: box.y + box.height / 2,
        });
        continue;
      }
      const node = byId.get(child.id);
      if (!node) continue;
      nodes.push({
        ...box,
        id: node.id,
        key: node.key,
        label: node.label,
        kind: node.kind,
        region: node.region,
        depth,
        activities: activitiesOf(node),
        notes: node.internal.map(noteText),
      });
      walk(child, depth + 1);
    }
  };
  walk(laidOut, 0);

  const routeOf = (edge: ElkExtendedEdge): { x: number; y: number }[] =>
    (edge.sections ?? [])
      .flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint])
      .map((p) => ({ x: p.x, y: p.y }));

  const edges: LaidOutEdge[] = [];
  const graphEdges = new Map(graph.edges.map((e) => [e.id, e]));
  for (const edge of collectEdges(laidOut)) {
    if (edge.id.endsWith('#initial-edge')) {
      const parent = edge.id.slice(0, -'#initial-edge'.length);
      const dot = initialDots.get(parent);
      const node = byId.get(parent);
      if (dot && node?.initial)
        initials.push({ parent, target: node.initial, ...dot, points: routeOf(edge) });
      continue;
    }
    const source = graphEdges.get(edge.id);
    if (!source || source.target === null) continue;
    const label = edge.labels?.[0];
    edges.push({
      id: edge.id,
      source: source.source,
      target: source.target,
      trigger: source.trigger,
      lines: edgeLines(source),
      points: routeOf(edge),
      labelBox: label
        ? { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0 }
        : undefined,
    });
  }
  return {
    width: Math.ceil(laidOut.width ?? 0),
    height: Math.ceil(laidOut.height ?? 0),
    nodes,
    edges,
    initials,
    elapsedMs,
  };
}

function collectEdges(node: ElkNode): ElkExtendedEdge[] {
  return [...(node.edges ?? []), ...(node.children ?? []).flatMap(collectEdges)];
}

/** Lays a graph out with `engine` (no cache). */
export async function layoutGraph(
  graph: MachineGraph,
  engine: LayoutEngine,
  measure: MeasureText = estimateText,
  options: LayoutOptionsOf = {},
): Promise<ChartLayout> {
  const { graph: laidOut, elapsedMs } = await engine.layout(toElk(graph, measure, options));
  return fromElk(graph, laidOut, elapsedMs);
}

/** One cache per form (labelled or compact, in which order), each by graph. */
const caches = new Map<string, WeakMap<MachineGraph, Promise<ChartLayout>>>();

/** The layout of `graph`, computed on first use and shared by every chart that draws it. */
export function layoutOnce(
  graph: MachineGraph,
  engine: LayoutEngine,
  measure: MeasureText = estimateText,
  options: LayoutOptionsOf = {},
): Promise<ChartLayout> {
  const key = `${options.edgeLabels ?? true} ${options.definitionOrder ?? false}`;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new WeakMap()));
  let layout = cache.get(graph);
  if (!layout) {
    layout = layoutGraph(graph, engine, measure, options);
    cache.set(graph, layout);
  }
  return layout;
}
