/**
 * The one drawing of the protocol lifecycle (first screen, every task card,
 * the task detail), laid out from the lifecycle machine's graph
 * (src/machines/machine-graph.ts) with a fixed, small scheme instead of a
 * general layout engine: the live states stacked on the left, inside one
 * "live" frame, the final states stacked on the right, and one arrow per
 * final state carrying every event that leads there. So no two arrows ever
 * cross (a general layered layout crossed them). Read from the graph, so a
 * state or transition added to the machine shows up here with no other
 * change; pure, so it is tested in Node.
 *
 * Sized for a phone: the natural width is about 400 units, drawn at 1 unit
 * per CSS pixel on a wide screen and scaled down a little on a narrow one.
 */
import type { MachineGraph } from '../../machines/machine-graph.ts';

export interface DiagramBox {
  id: string;
  /** The state's key: the status it stands for. */
  status: string;
  final: boolean;
  initial: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Events that leave this state for itself (`job.askedForInput` while already waiting). */
  selfLoops: string[];
}

export interface DiagramArrow {
  /** Source state ids: several when the arrow leaves the "live" frame. */
  from: string[];
  to: string;
  /** The events that take it, one line each. */
  events: string[];
  /** Polyline, first point at the source. */
  points: { x: number; y: number }[];
  /** Where the first label line's baseline starts, and its anchor. */
  label: { x: number; y: number; anchor: 'start' | 'end' };
}

export interface LifecycleDiagram {
  width: number;
  height: number;
  boxes: DiagramBox[];
  arrows: DiagramArrow[];
  /** The frame around the live states, when there is more than one. */
  liveFrame: { x: number; y: number; width: number; height: number } | undefined;
  /** The column heading over the final states. */
  finalHeading: { x: number; y: number; text: string };
}

const CHAR = 6.6; // a monospace glyph at the labels' 11 px
const LINE = 13;
const BOX_H = 30;
const LIVE_W = 150;
const FINAL_W = 104;
const LIVE_GAP = 64; // room between two live states for the arrows both ways and their labels
const FINAL_GAP = 14;
const TOP = 24;
const FRAME_PAD = 10;
const FINAL_HEADING = 'final: never changes';
/** Without labels (a task card): the arrows need only room for their heads. */
const BARE_LIVE_GAP = 26;
const BARE_ARROW = 34;
const HEADING_CHAR = 6.4; // the headings' 10.5 px UI font, on average

/**
 * Lays the lifecycle machine's graph out (its root's direct children are
 * the statuses). `stacked` puts the final states under the live ones, each
 * reached from one trunk, for a narrow screen: about 320 units wide instead
 * of 480, so its text stays readable at 390 px. `labels: false` leaves the
 * events off the arrows (they stay in `events`, for the accessible name):
 * about 330 units by 130, small enough for a task card.
 */
export function layoutLifecycle(
  graph: MachineGraph,
  { stacked = false, labels = true }: { stacked?: boolean; labels?: boolean } = {},
): LifecycleDiagram {
  const liveGap = labels ? LIVE_GAP : BARE_LIVE_GAP;
  const root = graph.nodes.find((n) => n.id === graph.rootId);
  const states = graph.nodes.filter((n) => n.parent === graph.rootId);
  const live = states.filter((n) => n.kind !== 'final');
  const finals = states.filter((n) => n.kind === 'final');
  const edges = graph.edges.filter((e) => e.target !== null);
  const label = (eventType: string): string => graph.eventLabels[eventType] ?? eventType;

  const selfLoops = (id: string): string[] =>
    edges.filter((e) => e.source === id && e.target === id).map((e) => label(e.eventType));

  // Live states, one above the other.
  const liveX = FRAME_PAD + 18;
  const boxes: DiagramBox[] = live.map((node, i) => ({
    id: node.id,
    status: node.key,
    final: false,
    initial: root?.initial === node.id,
    x: liveX,
    y: TOP + FRAME_PAD + i * (BOX_H + liveGap),
    width: LIVE_W,
    height: BOX_H,
    selfLoops: labels ? selfLoops(node.id) : [],
  }));
  // A self-loop is a note under its box ("↻ job.askedForInput"), one line each.
  const liveBottom =
    boxes.length > 0
      ? Math.max(...boxes.map((b) => b.y + b.height + b.selfLoops.length * LINE))
      : TOP;
  const liveFrame =
    live.length > 1
      ? {
          x: FRAME_PAD,
          y: TOP,
          width: LIVE_W + 26,
          height: liveBottom + FRAME_PAD - TOP,
        }
      : undefined;
  const liveRight = liveFrame ? liveFrame.x + liveFrame.width : liveX + LIVE_W;

  // Arrows between live states: down on the left, up on the right, labels stacked in the gap.
  const arrows: DiagramArrow[] = [];
  for (const edge of edges) {
    const from = boxes.find((b) => b.id === edge.source);
    const to = boxes.find((b) => b.id === edge.target);
    if (!from || !to || from === to) continue;
    const down = to.y > from.y;
    const x = down ? from.x + 12 : from.x + from.width - 12;
    const y1 = down ? from.y + from.height : from.y;
    const y2 = down ? to.y : to.y + to.height;
    const gapTop = Math.min(y1, y2);
    arrows.push({
      from: [from.id],
      to: to.id,
      events: [label(edge.eventType)],
      points: [
        { x, y: y1 },
        { x, y: y2 },
      ],
      label: down
        ? { x: x + 6, y: gapTop + 24, anchor: 'start' }
        : { x: x - 6, y: gapTop + liveGap - 14, anchor: 'end' },
    });
  }

  // Arrows to the final states: one per final, from the live frame when every live state leads there.
  const grouped = finals.map((node) => {
    const into = edges.filter((e) => e.target === node.id && e.source !== node.id);
    return {
      node,
      sources: [...new Set(into.map((e) => e.source))],
      events: [...new Set(into.map((e) => label(e.eventType)))],
    };
  });
  const longest = Math.max(10, ...grouped.flatMap((g) => g.events.map((e) => e.length)));
  const labelRoom = labels ? Math.ceil(longest * CHAR) + 18 : BARE_ARROW;
  const liveBottomEdge = liveFrame ? liveFrame.y + liveFrame.height : liveBottom;
  const trunkX = liveX + 20;
  const finalX = stacked ? trunkX + labelRoom : liveRight + labelRoom;
  let y = stacked ? liveBottomEdge + 26 : TOP + 4;
  const finalTop = y;
  for (const { node, sources, events } of grouped) {
    // The label lines sit above the arrow, which meets the box in its middle.
    const above = labels ? Math.max(0, events.length - 1) * LINE : 0;
    y += above;
    const box: DiagramBox = {
      id: node.id,
      status: node.key,
      final: true,
      initial: false,
      x: finalX,
      y,
      width: FINAL_W,
      height: BOX_H,
      selfLoops: [],
    };
    boxes.push(box);
    const mid = y + BOX_H / 2;
    const fromAll = live.length > 1 && live.every((l) => sources.includes(l.id));
    const source = boxes.find((b) => b.id === sources[0]);
    const startX = fromAll || !source ? liveRight : source.x + source.width;
    const startY = fromAll || !source ? liveBottomEdge : source.y + source.height;
    if (sources.length > 0)
      arrows.push({
        from: sources,
        to: node.id,
        events,
        // Stacked: down the trunk from under the live states, then right to the box.
        points: stacked
          ? [
              { x: trunkX, y: startY },
              { x: trunkX, y: mid },
              { x: finalX, y: mid },
            ]
          : [
              { x: startX, y: mid },
              { x: finalX, y: mid },
            ],
        label: { x: (stacked ? trunkX : startX) + 8, y: mid - 5 - above, anchor: 'start' },
      });
    y += BOX_H + FINAL_GAP;
  }

  const bottom = Math.max(liveBottomEdge, y - FINAL_GAP);
  return {
    width: finalX + Math.max(FINAL_W, Math.ceil(FINAL_HEADING.length * HEADING_CHAR)) + 4,
    height: bottom + 6,
    boxes,
    arrows,
    liveFrame,
    finalHeading: { x: finalX, y: (stacked ? finalTop : TOP) - 8, text: FINAL_HEADING },
  };
}
