/**
 * Which items of a long list are near the visible part of their scroller:
 * the task list draws a card only there (a card is a few hundred live
 * elements; a thousand of them took seconds a frame), and a light slot of
 * the card's last height everywhere else, so the scrollbar stays true.
 *
 * One IntersectionObserver per list, rooted at the list's scroll container
 * (the page column, or the viewport when the layout lets the page scroll),
 * with a margin of one scroller height above and below, so cards are drawn
 * before they scroll in. The root is found again after a resize, because
 * the narrow layout moves the scrolling from the column to the page.
 */
import type { Attachment } from 'svelte/attachments';
import { SvelteSet } from 'svelte/reactivity';

/** The nearest ancestor that scrolls vertically, or null for the viewport. */
function scrollerOf(node: Element): Element | null {
  for (let at = node.parentElement; at; at = at.parentElement) {
    const { overflowY } = getComputedStyle(at);
    if (overflowY === 'auto' || overflowY === 'scroll') return at;
  }
  return null;
}

export class NearView<T> {
  /** The items near view now (reactive, per item). */
  readonly #near = new SvelteSet<T>();
  readonly #items = new Map<Element, T>();
  #observer: IntersectionObserver | undefined;
  #root: Element | null | undefined;
  #resizeFrame: number | undefined;
  readonly #onresize = () => {
    this.#resizeFrame ??= requestAnimationFrame(() => {
      this.#resizeFrame = undefined;
      const first = this.#items.keys().next().value;
      if (first && scrollerOf(first) !== this.#root) this.#reobserve(first);
    });
  };

  /** Whether `item`'s slot is within a scroller height of the visible part. */
  has(item: T): boolean {
    return this.#near.has(item);
  }

  /** Attaches to `item`'s slot element. */
  watch(item: T): Attachment<HTMLElement> {
    return (node) => {
      if (this.#items.size === 0) addEventListener('resize', this.#onresize);
      this.#items.set(node, item);
      if (!this.#observer) this.#reobserve(node);
      else this.#observer.observe(node);
      return () => {
        this.#observer?.unobserve(node);
        this.#items.delete(node);
        this.#near.delete(item);
        if (this.#items.size === 0) this.#stop();
      };
    };
  }

  #reobserve(sample: Element): void {
    this.#observer?.disconnect();
    this.#root = scrollerOf(sample);
    this.#observer = new IntersectionObserver((entries) => this.#seen(entries), {
      root: this.#root,
      rootMargin: '100% 0px',
    });
    for (const node of this.#items.keys()) this.#observer.observe(node);
  }

  #seen(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const item = this.#items.get(entry.target);
      if (item === undefined) continue;
      if (entry.isIntersecting) this.#near.add(item);
      else this.#near.delete(item);
    }
  }

  #stop(): void {
    removeEventListener('resize', this.#onresize);
    if (this.#resizeFrame !== undefined) cancelAnimationFrame(this.#resizeFrame);
    this.#resizeFrame = undefined;
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#root = undefined;
  }
}
