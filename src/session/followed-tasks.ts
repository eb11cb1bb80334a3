/**
 * The tasks the page follows, newest first, and the journal that keeps their
 * facts: follow a task handle (T7), carry on every stored task after a
 * reload (T12), follow a task by its id alone (M5), answer, cancel, forget.
 * The one place this is wired: the page, the scenarios and the property
 * tests all follow tasks through here.
 */
import type { RpcClient } from '../client/rpc-client.ts';
import { describeError } from '../client/rpc-error.ts';
import type { TaskActor, TaskFollower } from '../client/task-follower.ts';
import { getTask } from '../client/task-lookup.ts';
import { rpcErrorCode } from '../machines/task-machine.ts';
import { ErrorCode } from '../protocol/constants.ts';
import {
  finishedActor,
  followFactsOf,
  resumeInputOf,
  type FollowFacts,
} from '../client/task-facts.ts';
import type { TaskJournal } from '../client/task-journal.ts';
import type { ElicitResult } from '../protocol/elicitation.ts';
import type { CreateTaskResult, DetailedTask } from '../protocol/task.ts';
import type { StoredTask } from '../store/page-store.ts';

/** The tool name shown for a task followed by id that this browser has never seen called. */
export const UNKNOWN_TOOL = '(by id)';

/** Whether an actor has stopped: an outcome was reached, or the task was forgotten. */
export function isDone(actor: TaskActor): boolean {
  return actor.getSnapshot().status !== 'active';
}

export function taskIdOf(actor: TaskActor): string {
  return actor.getSnapshot().context.taskId;
}

export interface FollowedTasksEvents {
  /** The list changed (newest first). */
  tasks: readonly TaskActor[];
  /** One actor joined the list: a new task, or one carried on after a reload. */
  followed: { actor: TaskActor; restored: boolean };
}

/** Where the list reports its changes: one listener per event. */
export interface FollowedTasksListener {
  tasks(actors: FollowedTasksEvents['tasks']): void;
  followed(event: FollowedTasksEvents['followed']): void;
}

export class FollowedTasks {
  readonly #follower: TaskFollower;
  readonly #journal: TaskJournal;
  readonly #listener: FollowedTasksListener;
  readonly #now: () => number;
  #actors: readonly TaskActor[] = [];

  constructor(
    follower: TaskFollower,
    journal: TaskJournal,
    listener: FollowedTasksListener,
    now: () => number,
  ) {
    this.#follower = follower;
    this.#journal = journal;
    this.#listener = listener;
    this.#now = now;
  }

  /** Newest first. */
  get actors(): readonly TaskActor[] {
    return this.#actors;
  }

  /** The live actor following `taskId`, if any. */
  live(taskId: string): TaskActor | undefined {
    return this.#actors.find((actor) => taskIdOf(actor) === taskId && !isDone(actor));
  }

  /**
   * Every stored task, oldest followed first: a fresh actor carrying on each
   * unfinished one (T12), a finished one for each the page had stopped
   * following. Each is tracked again, and listed after anything newer.
   * `stored` is the journal's read, when the caller asked for it already.
   */
  async restore(stored: Promise<StoredTask[]> = this.#journal.load()): Promise<number> {
    const actors = (await stored).map((task) => this.#restore(task));
    this.#set([...actors.toReversed(), ...this.#actors]);
    for (const actor of actors) this.#listener.followed({ actor, restored: true });
    return actors.length;
  }

  /** Follows a task handle a tools/call returned, and keeps its facts from now on (T7, T12). */
  follow(
    task: CreateTaskResult,
    toolName: string,
    args: Record<string, unknown>,
    identity: string,
  ): TaskActor {
    return this.#show(this.#follower.follow(task, toolName), {
      toolName,
      arguments: args,
      identity,
      followedAt: this.#now(),
    });
  }

  /**
   * Follows a task by its id alone, as a second tab can (M5): one tasks/get,
   * then the usual polling. Resolves with an error message, or undefined;
   * `explainUnknown` says why the server may not know the id (`-32602`).
   */
  async followById(
    raw: string,
    client: RpcClient,
    identity: string,
    explainUnknown: (taskId: string) => string,
  ): Promise<string | undefined> {
    const taskId = raw.trim();
    if (!taskId) return 'Enter a taskId.';
    if (this.live(taskId)) return `Already following ${taskId}.`;
    try {
      await this.followKnown(await getTask(client, taskId), identity);
      return undefined;
    } catch (error) {
      const said = `tasks/get failed: ${describeError(error)}.`;
      return rpcErrorCode(error) === ErrorCode.InvalidParams
        ? `${said} ${explainUnknown(taskId)}`
        : said;
    }
  }

  /** Follows a task known by id alone (M5), with what this browser knows about it. */
  async followKnown(task: DetailedTask, identity: string): Promise<TaskActor> {
    const facts = await this.knownFacts(task.taskId, identity);
    return this.#show(this.#follower.follow(task, facts.toolName), facts);
  }

  /** What this browser knows about a task another tab may have started. */
  async knownFacts(taskId: string, identity: string): Promise<FollowFacts> {
    const known = (await this.#journal.load()).find(
      (t) => t.taskId === taskId && t.identity === identity,
    );
    return known
      ? { ...followFactsOf(known), followedAt: this.#now() }
      : { toolName: UNKNOWN_TOOL, arguments: {}, identity, followedAt: this.#now() };
  }

  /** Removes a task; one still running is forgotten first (T17 allows it). */
  dismiss(taskId: string): void {
    const actor = this.#actors.find((a) => taskIdOf(a) === taskId);
    if (!actor) return;
    if (!isDone(actor)) actor.send({ type: 'task.forget' });
    this.#set(this.#actors.filter((a) => a !== actor));
    void this.#journal.forget([taskId]);
  }

  /** Removes every finished task, from the list and from storage. */
  clearFinished(): void {
    const finished = this.#actors.filter(isDone);
    this.#set(this.#actors.filter((a) => !isDone(a)));
    void this.#journal.forget(finished.map(taskIdOf));
  }

  /** Answers one input request of a followed task (T15). */
  answer(taskId: string, key: string, response: ElicitResult): void {
    this.live(taskId)?.send({ type: 'task.answer', responses: { [key]: response } });
  }

  /** Cancels a followed task (T17). */
  cancel(taskId: string): void {
    this.live(taskId)?.send({ type: 'task.cancel' });
  }

  /** Stops every actor and empties the list (the journal keeps the facts). */
  stopAll(options: { empty: boolean }): void {
    this.#follower.stopAll();
    if (options.empty) this.#set([]);
  }

  #restore(stored: StoredTask): TaskActor {
    const facts = followFactsOf(stored);
    const finished = finishedActor(stored);
    if (finished) {
      this.#journal.track(finished, facts);
      return finished;
    }
    const input = resumeInputOf(stored, this.#now());
    const actor = this.#reportErrors(
      this.#follower.follow(input.task, input.toolName, input.resume),
    );
    this.#journal.track(actor, facts);
    return actor;
  }

  /** Puts a new task first, and keeps its facts from now on (T12). */
  #show(actor: TaskActor, facts: FollowFacts): TaskActor {
    this.#reportErrors(actor);
    this.#journal.track(actor, facts);
    this.#set([actor, ...this.#actors]);
    this.#listener.followed({ actor, restored: false });
    return actor;
  }

  /** An actor that fails says so, instead of XState reporting an unhandled error. */
  #reportErrors(actor: TaskActor): TaskActor {
    actor.subscribe({
      error: (error) => console.error(`[task ${taskIdOf(actor)}] actor failed`, error),
    });
    return actor;
  }

  #set(actors: readonly TaskActor[]): void {
    this.#actors = actors;
    this.#listener.tasks(actors);
  }
}
