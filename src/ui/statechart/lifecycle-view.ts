/**
 * The task's own lifecycle as the page draws it: the graph of
 * `taskLifecycleMachine` (the machine the server moves every task through),
 * and the two things highlighted on it: the status the client last saw (its
 * last `tasks/get` reply or notification) and, as an x-ray, the status the
 * server's store holds now. Between polls the two may differ; that gap is
 * the lesson: a client learns of a change up to `pollIntervalMs` late (T12).
 *
 * Pure: tested in Node; the Svelte components only show what this says.
 */
import { type MachineGraph } from '../../machines/machine-graph.ts';
import { taskLifecycleMachine } from '../../machines/task-lifecycle.ts';
import type { TaskStatus } from '../../protocol/task.ts';
import type { StoredTaskReading } from '../../session/server-xray.ts';
import { graphOf } from './graph-cache.ts';
import { layoutLifecycle, type LifecycleDiagram } from './lifecycle-diagram.ts';

/** The chart's graph, built from the machine's definition (once). */
export function lifecycleGraph(): MachineGraph {
  return graphOf(taskLifecycleMachine);
}

const diagrams = new Map<string, LifecycleDiagram>();

/**
 * The chart's drawing in one form, laid out once and shared (read only):
 * every card draws the same one, so a card scrolled into view lays nothing out.
 */
export function lifecycleDiagram(form: { stacked: boolean; labels: boolean }): LifecycleDiagram {
  const key = `${form.stacked} ${form.labels}`;
  let diagram = diagrams.get(key);
  if (!diagram) diagrams.set(key, (diagram = layoutLifecycle(lifecycleGraph(), form)));
  return diagram;
}

/** The id of the state a status is drawn as, or undefined when the machine has no such state. */
export function lifecycleStateId(
  graph: MachineGraph,
  status: TaskStatus | undefined,
): string | undefined {
  if (status === undefined) return undefined;
  const root = graph.nodes.find((n) => n.id === graph.rootId);
  return root?.children.find((id) => graph.nodes.some((n) => n.id === id && n.key === status));
}

/** What the client last saw beside what the store holds now. */
export type ViewsCompared =
  | { kind: 'agree'; status: TaskStatus }
  /** The store moved on; the client has not asked since (or stopped asking). */
  | { kind: 'behind'; clientSaw: TaskStatus; stored: TaskStatus }
  /** The store holds no such task: deleted after its TTL (T13), or never there. */
  | { kind: 'not-stored'; clientSaw: TaskStatus; deleted: boolean }
  /** Nothing shows what the store holds: the server is down or starting. */
  | { kind: 'no-xray'; clientSaw: TaskStatus; reason: keyof typeof NO_XRAY_BECAUSE };

export function compareViews(clientSaw: TaskStatus, stored: StoredTaskReading): ViewsCompared {
  switch (stored.kind) {
    case 'stored':
      return stored.status === clientSaw
        ? { kind: 'agree', status: clientSaw }
        : { kind: 'behind', clientSaw, stored: stored.status };
    case 'not-stored':
      return { kind: 'not-stored', clientSaw, deleted: stored.deleted };
    case 'no-xray':
      return { kind: 'no-xray', clientSaw, reason: stored.reason };
  }
}

/** The status the x-ray highlights, when it shows one. */
export function storedStatus(compared: ViewsCompared): TaskStatus | undefined {
  if (compared.kind === 'agree') return compared.status;
  return compared.kind === 'behind' ? compared.stored : undefined;
}

const NO_XRAY_BECAUSE = {
  'server down': 'the server is down, so nothing shows what its store holds',
  'server starting': 'the server is starting and has not said what its store holds yet',
  'not our server': 'this page does not run your server, so it cannot look into its store',
} as const;

/**
 * The sentence beside the chart, or undefined when the two agree. `following`:
 * the client still polls (it has not concluded, nor stopped following).
 */
export function gapSentence(
  compared: ViewsCompared,
  facts: { pollIntervalMs: number; following: boolean },
): string | undefined {
  switch (compared.kind) {
    case 'agree':
      return undefined;
    case 'behind':
      return facts.following
        ? `They differ: the server's store already says ${compared.stored}, the client last saw ${compared.clientSaw}. It learns of the change with its next tasks/get (or a notification): up to ${facts.pollIntervalMs} ms late (T12).`
        : `They differ: the server's store says ${compared.stored}, the client last saw ${compared.clientSaw}, and it has stopped asking, so it will not learn of it.`;
    case 'not-stored':
      return compared.deleted
        ? `The server's store no longer holds this task: it was deleted after its TTL (T13), so its id answers -32602. Deletion is the task leaving the store, not a status. The client last saw ${compared.clientSaw}.`
        : `The server's store does not hold this task (a restarted in-memory server, or another tab's server): a tasks/get answers -32602. The client last saw ${compared.clientSaw}.`;
    case 'no-xray':
      return `No x-ray: ${NO_XRAY_BECAUSE[compared.reason]}. The client last saw ${compared.clientSaw}.`;
  }
}

/**
 * The sentence beside the chart at a past history step: what the store held
 * at that moment beside what the client had seen (`reading`, from the x-ray
 * recorded over time), or that the page does not know it for that step.
 */
export function stepSentence(
  compared: ViewsCompared | undefined,
  facts: { pollIntervalMs: number },
): string {
  if (compared === undefined)
    return "At this step: what the server's store held then is not known (the page recorded no x-ray for that moment), so only what the client saw is drawn. Press Live for now.";
  if (compared.kind === 'agree')
    return `At this step the server's store held ${compared.status} too: the client and the store agreed.`;
  if (compared.kind === 'behind')
    return `At this step they differed: the server's store held ${compared.stored}, the client had seen ${compared.clientSaw}. A client learns of a change with its next tasks/get (or a notification): up to ${facts.pollIntervalMs} ms late (T12).`;
  return `At this step: ${gapSentence(compared, { ...facts, following: true }) ?? ''}`;
}
