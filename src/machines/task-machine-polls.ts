/**
 * How a task machine's tasks/get is made: the caller's request function
 * wrapped as the machine's `sendPoll` action. The answer, or the reason it
 * failed, comes back to the actor as a plain event (`poll.answered`,
 * `poll.failed`), so a poll creates no actor of its own. A request the
 * caller sends again (C8) says so (`poll.resent`): the next poll is paced
 * from its last send (T12).
 */
import type { DetailedTask } from '../protocol/task.ts';
import type { TaskMachineEvent } from './task-machine-context.ts';

/** The part of the actor `sendPoll` is given that it uses: where the answer goes. */
interface PollingActor {
  send(event: TaskMachineEvent): void;
  getSnapshot(): { status: string };
}

/**
 * The `sendPoll` action for `taskMachine.provide({ actions: { sendPoll: pollsBy(get) } })`:
 * `get(taskId, resent)` makes the tasks/get; it resolves with the report or rejects
 * with a JSON-RPC error object or transport trouble, and calls `resent()` each
 * time the request goes out again (re-issued under a new id, C8). An actor that ended or
 * stopped while the request was out is told nothing (its answer has no state
 * left to go to, as an invoked actor's would be dropped with it).
 */
export function pollsBy(
  get: (taskId: string, resent: () => void) => Promise<DetailedTask>,
): (args: { self: PollingActor }, params: { taskId: string }) => void {
  return ({ self }, { taskId }) => {
    const tell = (event: TaskMachineEvent): void => {
      if (self.getSnapshot().status === 'active') self.send(event);
    };
    let answer: Promise<DetailedTask>;
    try {
      answer = get(taskId, () => tell({ type: 'poll.resent' }));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (task) => tell({ type: 'poll.answered', task }),
      (error: unknown) => tell({ type: 'poll.failed', error }),
    );
  };
}
