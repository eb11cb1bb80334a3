/**
 * How the page's load balancer picks a server node for each JSON-RPC
 * request, from what an HTTP balancer can see without reading the body: the
 * method (`Mcp-Method`) and the `Mcp-Name` header (T19). Pure: the random
 * policy draws from a seeded PRNG, so a run can be repeated.
 */
import { Method } from '../../protocol/constants.ts';
import { Prng } from '../../net/prng.ts';

export const ROUTING_POLICIES = ['round-robin', 'random', 'sticky'] as const;
export type RoutingPolicy = (typeof ROUTING_POLICIES)[number];

/** What each policy is called on the page. */
export const POLICY_LABELS: Record<RoutingPolicy, string> = {
  'round-robin': 'Round-robin',
  random: 'Random',
  sticky: 'Sticky by Mcp-Name',
};

export function isRoutingPolicy(value: unknown): value is RoutingPolicy {
  return typeof value === 'string' && (ROUTING_POLICIES as readonly string[]).includes(value);
}

/** What the balancer reads of a request: its `Mcp-Method` and `Mcp-Name` headers. */
export interface RouteRequest {
  method: string;
  /** The taskId of a `tasks/get|update|cancel`, the tool of a `tools/call` (T19). */
  mcpName: string | undefined;
}

/** The requests that name a task in `Mcp-Name`, which sticky routing sends to the task's node. */
const TASK_ADDRESSED = new Set<string>([Method.tasksGet, Method.tasksUpdate, Method.tasksCancel]);

/** Picks a node per request; keeps the round-robin turn and the random sequence. */
export class NodePicker {
  /** The node round-robin picked last: the next pick is the first live one after it. */
  #last = 0;
  #prng: Prng;
  readonly #seed: number;

  constructor(seed: number) {
    this.#seed = seed;
    this.#prng = new Prng(seed);
  }

  /** From the top: round-robin's next pick is the first live node, random's draws start again from the seed. */
  restart(): void {
    this.#last = 0;
    this.#prng = new Prng(this.#seed);
  }

  /**
   * The node for `request` among the `live` ones (numbers, in order), or
   * undefined when none is live. Sticky sends a task's requests to the node
   * `holderOf` names; a task it does not know, or whose node is down, goes
   * round-robin, as a balancer re-hashes around a dead upstream.
   */
  pick(
    policy: RoutingPolicy,
    request: RouteRequest,
    live: readonly number[],
    holderOf: (taskId: string) => number | undefined,
  ): number | undefined {
    if (live.length === 0) return undefined;
    if (policy === 'sticky' && TASK_ADDRESSED.has(request.method) && request.mcpName) {
      const holder = holderOf(request.mcpName);
      if (holder !== undefined && live.includes(holder)) return holder;
    }
    if (policy === 'random') return live[Math.floor(this.#prng.next() * live.length)];
    const node = live.find((n) => n > this.#last) ?? live[0]!;
    this.#last = node;
    return node;
  }
}
