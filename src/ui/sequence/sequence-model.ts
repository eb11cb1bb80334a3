/**
 * The wire log as a sequence diagram reads it: one message per row, each
 * tied to the task it concerns (a `tools/call` request learns its taskId
 * from the response that created the task, a lost request from its
 * re-issue), and marked with what the network did to it.
 */
import type { WireRow } from '../../client/wire-annotation.ts';

/** What happened to a message on the way, as the diagram marks it. */
export interface MessageMarks {
  /** It never arrived (`loss`, `link-dropped`, `rule`), or `unanswered` when its link broke before any answer. */
  lost?: string;
  delayMs?: number;
  duplicated?: boolean;
  duplicate?: boolean;
  reordered?: boolean;
  /** This request repeats an earlier one under a new id (C8). */
  reissueOf?: string | number;
  reissueReason?: string;
  /** This request was sent again under `reissuedAs`: it was never answered. */
  reissuedAs?: string | number;
  rule?: string;
}

export interface SequenceMessage extends MessageMarks {
  seq: number;
  at: number;
  direction: WireRow['direction'];
  kind: WireRow['kind'];
  method: string | undefined;
  id: WireRow['id'];
  taskId: string | undefined;
  gist: string;
  status: WireRow['status'];
  resultType: WireRow['resultType'];
  /** The server node behind the page's balancer it went to or came from (1 to 5). */
  node: number | undefined;
  /** The side connection it went over (its ids count from 1 too); undefined for the page's client. */
  connection: string | undefined;
  message: unknown;
}

export interface SequenceFilter {
  /** Only messages about this task; `''` for all. */
  taskId: string;
  /** Only this method (a response counts as its request's method); `''` for all. */
  method: string;
}

function marksOf(row: WireRow): MessageMarks {
  const net = row.net;
  const marks: MessageMarks = {};
  if (row.reissueOf !== undefined) marks.reissueOf = row.reissueOf;
  if (row.reissueReason !== undefined) marks.reissueReason = row.reissueReason;
  if (!net) return marks;
  if (net.lost) marks.lost = net.lost;
  // A lost message's delay never ran out: only delivered ones are "delayed".
  if (net.delayMs > 0 && !net.lost) marks.delayMs = Math.round(net.delayMs);
  if (net.duplicated) marks.duplicated = true;
  if (net.duplicate) marks.duplicate = true;
  if (net.reordered) marks.reordered = true;
  if (net.rule) marks.rule = net.rule;
  return marks;
}

/** One row as the diagram's message, about `taskId`, with what the network did to it. */
function sequenceMessage(
  row: WireRow,
  taskId: string | undefined,
  marks: MessageMarks,
): SequenceMessage {
  return {
    seq: row.seq,
    at: row.at,
    direction: row.direction,
    kind: row.kind,
    method: row.method,
    id: row.id,
    taskId,
    gist: row.gist,
    status: row.status,
    resultType: row.resultType,
    connection: row.connection,
    node: row.node,
    message: row.message,
    ...marks,
  };
}

/**
 * Builds the diagram's messages from wire log rows, in order. With a
 * `cache`, a row whose message has not changed gets the same object back,
 * so a view keyed by row redraws only what is new.
 */
export function buildSequence(
  rows: readonly WireRow[],
  cache?: WeakMap<WireRow, SequenceMessage>,
): SequenceMessage[] {
  // A response names its task; its request (same id, other direction) is about the same task.
  const taskOfRequest = new Map<string, string>();
  const reissuedAs = new Map<string, string | number>();
  for (const row of rows) {
    if (
      (row.kind === 'result' || row.kind === 'error') &&
      row.taskId !== undefined &&
      row.id !== undefined &&
      row.id !== null
    ) {
      taskOfRequest.set(`${row.direction === 'in' ? 'out' : 'in'}:${row.id}`, row.taskId);
    }
    if (row.kind === 'request' && row.reissueOf !== undefined)
      reissuedAs.set(`${row.direction}:${row.reissueOf}`, row.id ?? '');
  }
  // Follow re-issue chains back: #4 re-issued as #7, answered with the task -> #4 is about it too.
  const taskOf = (direction: string, id: string | number): string | undefined => {
    let key = `${direction}:${id}`;
    for (let hops = 0; hops < 20; hops++) {
      const task = taskOfRequest.get(key);
      if (task !== undefined) return task;
      const next = reissuedAs.get(key);
      if (next === undefined) return undefined;
      key = `${direction}:${next}`;
    }
    return undefined;
  };

  return rows.map((row): SequenceMessage => {
    const isRequest = row.kind === 'request' && row.id !== undefined && row.id !== null;
    const later = isRequest ? reissuedAs.get(`${row.direction}:${row.id}`) : undefined;
    const taskId =
      row.taskId ?? (isRequest ? taskOf(row.direction, row.id as string | number) : undefined);
    const cached = cache?.get(row);
    if (
      cached &&
      cached.taskId === taskId &&
      cached.reissuedAs === later &&
      cached.node === row.node
    )
      return cached;
    const marks = marksOf(row);
    if (later !== undefined) {
      marks.reissuedAs = later;
      marks.lost ??= 'unanswered';
    }
    const message = sequenceMessage(row, taskId, marks);
    cache?.set(row, message);
    return message;
  });
}

/**
 * The messages about one task, without pairing requests across the whole
 * log: cheap enough for a timeline redrawn every frame. A `tools/call`
 * request (which names no task) is left out; its answer is in.
 */
export function taskMessages(rows: readonly WireRow[], taskId: string): SequenceMessage[] {
  const messages: SequenceMessage[] = [];
  for (const row of rows) {
    if (row.taskId !== taskId) continue;
    messages.push(sequenceMessage(row, taskId, marksOf(row)));
  }
  return messages;
}

export function filterSequence(
  messages: readonly SequenceMessage[],
  filter: SequenceFilter,
): SequenceMessage[] {
  return messages.filter(
    (m) =>
      (!filter.taskId || m.taskId === filter.taskId) &&
      (!filter.method || m.method === filter.method),
  );
}

/**
 * Where each node's lane sits across the diagram (percent), for the nodes
 * the messages name: right of the network lane, evenly spread.
 */
export function nodeLanes(messages: readonly SequenceMessage[]): Map<number, number> {
  const nodes = [...new Set(messages.flatMap((m) => (m.node === undefined ? [] : [m.node])))];
  nodes.sort((a, b) => a - b);
  const lanes = new Map<number, number>();
  nodes.forEach((node, i) =>
    lanes.set(node, nodes.length === 1 ? 92 : 56 + (i * 38) / (nodes.length - 1)),
  );
  return lanes;
}

/** The lane lines behind a cluster's diagram: client, network, then one per node (CSS background). */
export function laneBackground(lanes: ReadonlyMap<number, number>): string {
  const line = (colour: string, at: string): string =>
    `linear-gradient(var(${colour}), var(${colour})) ${at} 0 / 1px 100% no-repeat`;
  return [
    line('--border-strong', 'var(--client)'),
    line('--border', 'var(--network)'),
    ...[...lanes.values()].map((at) => line('--border-strong', `${at}%`)),
  ].join(', ');
}

/** Where a clustered message's arrow ends: its node's lane, or the network's while no node is known. */
export function serverLaneStyle(m: SequenceMessage, lanes: ReadonlyMap<number, number>): string {
  const at = m.node === undefined ? undefined : lanes.get(m.node);
  return `--server: ${at === undefined ? 'var(--network)' : `${at}%`}`;
}

/** The taskIds and methods present, for the filter menus (first seen first). */
export function sequenceFacets(messages: readonly SequenceMessage[]): {
  taskIds: string[];
  methods: string[];
} {
  const taskIds = new Set<string>();
  const methods = new Set<string>();
  for (const m of messages) {
    if (m.taskId) taskIds.add(m.taskId);
    if (m.method) methods.add(m.method);
  }
  return { taskIds: [...taskIds], methods: [...methods] };
}

/** Short words for a message's marks, e.g. `lost (loss)`, `+320 ms`, `re-issue of #4`. */
export function markLabels(m: MessageMarks): string[] {
  const labels: string[] = [];
  if (m.lost) labels.push(m.lost === 'unanswered' ? 'unanswered' : `lost (${m.lost})`);
  if (m.reissuedAs !== undefined) labels.push(`re-issued as #${String(m.reissuedAs)}`);
  if (m.reissueOf !== undefined)
    labels.push(
      `re-issue of #${String(m.reissueOf)}${m.reissueReason === 'timeout' ? ' (timeout)' : ''}`,
    );
  if (m.delayMs !== undefined) labels.push(`delayed +${m.delayMs} ms`);
  if (m.duplicate) labels.push('duplicate copy');
  else if (m.duplicated) labels.push('duplicated');
  if (m.reordered) labels.push('reordered');
  if (m.rule) labels.push(`rule: ${m.rule}`);
  return labels;
}
