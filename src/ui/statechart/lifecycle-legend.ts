/**
 * The protocol's statuses as the first screen lists them, read from the
 * lifecycle machine the server runs (src/machines/task-lifecycle.ts): its
 * states in definition order, whether each is final, and the machine's own
 * description of it. Nothing here is written twice, so the legend cannot
 * drift from the rule the server obeys.
 */
import { taskLifecycleMachine } from '../../machines/task-lifecycle.ts';

/** One status of the lifecycle, as the legend shows it. */
export interface LifecycleStatus {
  status: string;
  /** A final state: the task never leaves it (T9). */
  final: boolean;
  /** The machine's description of the state. */
  meaning: string;
}

/** Every state of the lifecycle machine, in its definition's order. */
export function lifecycleStatuses(): LifecycleStatus[] {
  return Object.values(taskLifecycleMachine.root.states).map((node) => ({
    status: node.key,
    final: node.type === 'final',
    meaning: node.description ?? '',
  }));
}
