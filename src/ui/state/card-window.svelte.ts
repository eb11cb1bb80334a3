/**
 * Which task cards the list draws. A card is a few hundred elements kept
 * live by its task's polls, so a thousand drawn cards took seconds a frame.
 * The newest `ALWAYS_DRAWN` are drawn as they are (the cards a learner acts
 * on; a restored page shows them at once), and so is any card asking for
 * input (its form must stay in reach, T14), the one whose detail is open and
 * any near the list's view. Every other task holds its place with a
 * placeholder as tall as its card was last drawn, so scrolling through the
 * list never jumps, and becomes a card as it nears the view.
 */
import { SvelteSet } from 'svelte/reactivity';

/** Drawn whatever the scroll position: more than a screen of cards at any width. */
export const ALWAYS_DRAWN = 12;
/** How far beyond the scroller's edge a placeholder turns into a card, so a fling rarely shows one. */
const NEAR_MARGIN = '1200px 0px';
/** A placeholder's height before its card was ever drawn (a compact card with its lifecycle chart). */
const FIRST_GUESS_PX = 300;

export interface CardWindowTask {
  readonly asksForInput: boolean;
}

export class CardWindow<T extends CardWindowTask> {
  readonly #near = new SvelteSet<T>();
  readonly #heights = new WeakMap<T, number>();
  readonly #byElement = new WeakMap<Element, T>();
  #intersection: IntersectionObserver | undefined;
  #resize: ResizeObserver | undefined;

  /** Whether the card of `task` (at `index`, newest first) is drawn; `open` is the task whose detail is open. */
  drawn(task: T, index: number, open: T | undefined): boolean {
    return index < ALWAYS_DRAWN || task.asksForInput || task === open || this.#near.has(task);
  }

  /** The height a placeholder keeps for `task`: its card's last drawn height. */
  heightOf(task: T): number {
    return this.#heights.get(task) ?? FIRST_GUESS_PX;
  }

  /**
   * A Svelte action on each list slot (card or placeholder): watches whether
   * it nears the view, and measures the card it holds.
   */
  readonly slot = (element: HTMLElement, task: T): { destroy(): void } => {
    this.#observers(element).intersection.observe(element);
    this.#observers(element).resize.observe(element);
    this.#byElement.set(element, task);
    return {
      destroy: () => {
        this.#intersection?.unobserve(element);
        this.#resize?.unobserve(element);
        this.#near.delete(task);
      },
    };
  };

  #observers(element: HTMLElement): { intersection: IntersectionObserver; resize: ResizeObserver } {
    this.#intersection ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const task = this.#byElement.get(entry.target);
          if (!task) continue;
          if (entry.isIntersecting) this.#near.add(task);
          else this.#near.delete(task);
        }
      },
      { root: scrollerOf(element), rootMargin: NEAR_MARGIN },
    );
    this.#resize ??= new ResizeObserver((entries) => {
      for (const entry of entries) {
        const task = this.#byElement.get(entry.target);
        // Only a drawn card's height counts: a placeholder's is the guess itself.
        if (task && !(entry.target as HTMLElement).dataset.placeholder)
          this.#heights.set(task, entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height);
      }
    });
    return { intersection: this.#intersection, resize: this.#resize };
  }
}

/** The element the list scrolls in (its column on a wide screen), or null for the page itself. */
function scrollerOf(element: HTMLElement): Element | null {
  for (let at = element.parentElement; at; at = at.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(at).overflowY)) return at;
  }
  return null;
}
