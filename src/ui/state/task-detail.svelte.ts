/**
 * Which task's detail (statechart, history, timeline) is open, if any. One
 * at a time; the card's "Statechart" button opens it and gets focus back
 * when it closes. Which chart it shows (the task's lifecycle, or the
 * client's follower machine) is kept across openings.
 */
import { tick } from 'svelte';
import { taskCardOf } from '../reveal.ts';
import type { FollowedTask } from './followed-task.svelte.ts';

/**
 * Once the detail is gone and the columns are drawn and interactive again,
 * focus goes back to the button that opened it; if that button was redrawn
 * meanwhile (the card list changed under the detail), to the same task's
 * card's Statechart button, so the keyboard never starts again from <body>.
 */
async function returnFocus(taskId: string, opener: HTMLElement | undefined): Promise<void> {
  await tick();
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const card = taskCardOf(taskId);
  const target = opener?.isConnected ? opener : card?.querySelector<HTMLElement>('.chart-toggle');
  (target ?? card)?.focus();
}

export class TaskDetail {
  #task = $state.raw<FollowedTask | undefined>();
  #opener: HTMLElement | undefined;
  /** Shows "how this client follows it" (the follower machine) instead of the task's lifecycle. */
  follower = $state(false);

  get task(): FollowedTask | undefined {
    return this.#task;
  }

  isOpen(task: FollowedTask): boolean {
    return this.#task === task;
  }

  /** Opens `task`'s detail, following its newest step. */
  open(task: FollowedTask, opener?: HTMLElement): void {
    task.history.followLive();
    this.#task = task;
    this.#opener = opener;
  }

  toggle(task: FollowedTask, opener?: HTMLElement): void {
    if (this.isOpen(task)) this.close();
    else this.open(task, opener);
  }

  close(): void {
    const task = this.#task;
    this.#task = undefined;
    const opener = this.#opener;
    this.#opener = undefined;
    if (task) void returnFocus(task.taskId, opener);
  }
}

export const taskDetail = new TaskDetail();
