/**
 * Which node created each task, as the balancer learns it from the
 * `CreateTaskResult` it forwards: what sticky routing by `Mcp-Name` needs
 * (T19). Bounded: the oldest entries go first.
 */
import { parseMessage } from '../../protocol/jsonrpc.ts';

const REMEMBERED = 10_000;

export class TaskPlacement {
  readonly #holder = new Map<string, number>();

  /** Notes the task a reply from `node` created, if it is a CreateTaskResult (T7). */
  learn(reply: unknown, node: number): void {
    const parsed = parseMessage(reply);
    if (parsed.kind !== 'result') return;
    const { result } = parsed.message;
    if (result['resultType'] !== 'task' || typeof result['taskId'] !== 'string') return;
    this.#holder.delete(result['taskId']);
    this.#holder.set(result['taskId'], node);
    if (this.#holder.size > REMEMBERED) {
      const oldest = this.#holder.keys().next().value;
      if (oldest !== undefined) this.#holder.delete(oldest);
    }
  }

  /** The node that created `taskId`, if the balancer saw it. */
  holderOf(taskId: string): number | undefined {
    return this.#holder.get(taskId);
  }

  clear(): void {
    this.#holder.clear();
  }
}
