/**
 * Which task's detail (statechart, history, timeline) is open, if any. One
 * at a time; the card's "Statechart" button opens it and gets focus back
 * when it closes. Which chart it shows (the task's lifecycle, or the
 * client's follower machine) is kept across openings.
 */
import type { FollowedTask } from './followed-task.svelte.ts';

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
    this.#task = undefined;
    const opener = this.#opener;
    this.#opener = undefined;
    // After the detail is gone and the page is interactive again.
    if (opener) setTimeout(() => opener.isConnected && opener.focus());
  }
}

export const taskDetail = new TaskDetail();
