/**
 * Which task cards the list draws: a virtualised list. A card is a few
 * hundred elements kept live by its task's polls, so a thousand drawn cards
 * took seconds a frame; the DOM now holds only the cards within `OVERSCAN_PX`
 * of the view, plus the pinned ones: the newest `ALWAYS_DRAWN` (the cards a
 * learner acts on; tests and a restored page find them at once), any asking
 * for input (its form must stay in reach, T14), the one whose detail is open,
 * and the one holding keyboard focus (so focus is never lost when its card
 * scrolls out). Empty space as tall as the cards it stands for keeps the
 * scroll height right (card-window-plan.ts does the maths).
 *
 * What is given up, on purpose: find-in-page finds text only in drawn cards,
 * and a screen reader's virtual cursor reads only drawn cards. Each card says
 * where it stands (`aria-posinset` of `aria-setsize`), the list says how many
 * are drawn, and a task far down is reached by scrolling, or by its taskId
 * ("Follow task by id", the wire log). Empty space is `aria-hidden`.
 *
 * Scroll anchoring stays the browser's: spacers opt out of it
 * (`overflow-anchor: none`), so the browser anchors on a drawn card and keeps
 * what is read in place when a card above it is drawn, measured or added.
 */
import { untrack } from 'svelte';
import { guessHeight, offsetsOf, planWindow } from './card-window-plan.ts';

/** Drawn whatever the scroll position: more than a screen of cards at any width. */
export const ALWAYS_DRAWN = 12;
/** How far beyond the view cards are drawn too: about two cards, a few frames of a fast fling. */
export const OVERSCAN_PX = 600;
/** Cards mounted per frame at most (a card's first draw is a few ms of script): no long task. */
export const MOUNTS_PER_FRAME = 3;
/** A card's height before any card was measured (a compact card with its lifecycle chart). */
const FIRST_GUESS_PX = 300;

/** A card the list draws now, and the empty space standing before it. */
export interface CardSlot<T> {
  readonly task: T;
  readonly index: number;
  readonly spaceBefore: number;
  /** Pinned, far from the view: its rendering is skipped (`content-visibility`) at this height. */
  readonly far: boolean;
  readonly height: number;
}

export class CardWindow<T> {
  /** The cards drawn, in list order. */
  slots = $state.raw<readonly CardSlot<T>[]>([]);
  /** Empty space after the last drawn card. */
  spaceAfter = $state(0);

  #tasks: readonly T[] = [];
  #open: T | undefined;
  #focused: T | undefined;
  #askers: ReadonlySet<T> = new Set<T>();
  readonly #heights = new Map<T, number>();
  readonly #mounted = new Set<T>();
  readonly #taskOf = new WeakMap<Element, T>();
  readonly #slotOf = new Map<T, HTMLElement>();
  #list: HTMLElement | undefined;
  #scroller: Element | null | undefined;
  #frame: number | undefined;
  #resize: ResizeObserver | undefined;
  #spaces: IntersectionObserver | undefined;
  readonly #spaceElements = new Set<HTMLElement>();
  readonly #alwaysDrawn: number;
  /**
   * Every card's height (measured or guessed), where each starts, and the pinned indexes: O(n)
   * to make, so kept until a card is measured, the list changes or the pinned ones do; a scroll
   * alone plans from it in O(drawn + log n), once a frame while the list moves.
   */
  #layout: CardLayout | undefined;

  /**
   * `alwaysDrawn`: how many of the newest cards are drawn wherever they are
   * ({@link ALWAYS_DRAWN} in the live list; a replay, whose cards all change
   * at each seek and where nothing waits on a card, pins none).
   */
  constructor(options: { alwaysDrawn?: number } = {}) {
    this.#alwaysDrawn = options.alwaysDrawn ?? ALWAYS_DRAWN;
  }

  /**
   * Called from an effect with the list's tasks, the task whose detail is
   * open and those asking for input (kept from their flags, not read here
   * over every task). Plans at the next frame: a burst of new tasks is
   * planned once a frame, with one read of the list's place on screen,
   * never once per task.
   */
  follow(tasks: readonly T[], open: T | undefined, askers: ReadonlySet<T>): void {
    untrack(() => {
      // The detail just closed: its card keeps its place until focus comes back to it.
      if (this.#open !== undefined && open === undefined) this.#focused ??= this.#open;
      this.#tasks = tasks;
      this.#open = open;
      this.#askers = askers;
      const present = new Set(tasks);
      for (const task of this.#heights.keys()) if (!present.has(task)) this.#heights.delete(task);
      this.#layout = undefined;
      this.#schedule();
    });
  }

  /** The drawn card of `task`, if it is drawn. */
  cardOf(task: T): HTMLElement | undefined {
    return this.#slotOf.get(task)?.querySelector<HTMLElement>('article') ?? undefined;
  }

  /** A Svelte action on the element holding the cards: scrolling, resizing and focus. */
  readonly list = (element: HTMLElement): { destroy(): void } => {
    this.#list = element;
    const onScroll = (event: Event) => {
      const target = event.target;
      if (target === document || (target instanceof Node && target.contains(element))) this.#plan();
    };
    const onResize = () => {
      // A narrow screen scrolls the page, a wide one the column: the spaces' observer follows.
      const before = this.#scrollerOf();
      this.#scroller = undefined;
      if (this.#scrollerOf() !== before) {
        this.#spaces?.disconnect();
        this.#spaces = undefined;
        for (const space of this.#spaceElements) this.#observeSpace(space);
      }
      this.#schedule();
    };
    const onFocusIn = (event: FocusEvent) => {
      const slot = event.target instanceof Element ? event.target.closest('.slot') : null;
      const task = slot ? this.#taskOf.get(slot) : undefined;
      if (task !== this.#focused) {
        this.#focused = task;
        this.#layout = undefined;
        this.#schedule();
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (next instanceof Node && element.contains(next)) return;
      this.#focused = undefined;
      this.#layout = undefined;
      this.#schedule();
    };
    addEventListener('scroll', onScroll, { capture: true, passive: true });
    addEventListener('resize', onResize);
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    this.#plan();
    return {
      destroy: () => {
        removeEventListener('scroll', onScroll, { capture: true });
        removeEventListener('resize', onResize);
        element.removeEventListener('focusin', onFocusIn);
        element.removeEventListener('focusout', onFocusOut);
        if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
        this.#resize?.disconnect();
        this.#spaces?.disconnect();
        this.#list = undefined;
      },
    };
  };

  /** A Svelte action on each drawn card's slot: measures it (its height, the gap below included). */
  readonly slot = (element: HTMLElement, task: T): { destroy(): void } => {
    this.#taskOf.set(element, task);
    this.#slotOf.set(task, element);
    this.#resize ??= new ResizeObserver((entries) => this.#measured(entries));
    this.#resize.observe(element);
    return {
      destroy: () => {
        this.#resize?.unobserve(element);
        if (this.#slotOf.get(task) === element) this.#slotOf.delete(task);
      },
    };
  };

  /** A Svelte action on each empty space: when one nears the view, cards are due there. */
  readonly space = (element: HTMLElement): { destroy(): void } => {
    this.#spaceElements.add(element);
    this.#observeSpace(element);
    return {
      destroy: () => {
        this.#spaceElements.delete(element);
        this.#spaces?.unobserve(element);
      },
    };
  };

  #observeSpace(element: HTMLElement): void {
    this.#spaces ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) this.#schedule();
      },
      { root: this.#scrollerOf(), rootMargin: `${OVERSCAN_PX}px 0px` },
    );
    this.#spaces.observe(element);
  }

  #measured(entries: readonly ResizeObserverEntry[]): void {
    let changed = false;
    for (const entry of entries) {
      const task = this.#taskOf.get(entry.target);
      // A far card's rendering is skipped: its box is the height it was given, not its own.
      if (!task || (entry.target as HTMLElement).classList.contains('far')) continue;
      const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
      if (height > 0 && Math.abs(height - (this.#heights.get(task) ?? -1)) >= 1) {
        this.#heights.set(task, height);
        changed = true;
      }
    }
    if (changed) {
      this.#layout = undefined;
      this.#schedule();
    }
  }

  #schedule(): void {
    this.#frame ??= requestAnimationFrame(() => {
      this.#frame = undefined;
      this.#plan();
    });
  }

  #scrollerOf(): Element | null {
    if (this.#scroller === undefined && this.#list) this.#scroller = scrollerOf(this.#list);
    return this.#scroller ?? null;
  }

  /** The view, in px from the top of the cards; undefined while the list is not laid out (under the task detail). */
  #view(): { top: number; bottom: number } | undefined {
    const list = this.#list;
    if (!list?.isConnected) return undefined;
    const rect = list.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return undefined;
    const scroller = this.#scrollerOf()?.getBoundingClientRect();
    const top = Math.max(scroller?.top ?? 0, 0);
    const bottom = Math.min(scroller?.bottom ?? innerHeight, innerHeight);
    return { top: top - rect.top, bottom: bottom - rect.top };
  }

  #plan(): void {
    const tasks = this.#tasks;
    const view = this.#view() ?? (this.#list ? undefined : { top: 0, bottom: innerHeight });
    if (!view) return;
    const { heights, offsets, pinned } = (this.#layout ??= this.#layoutOf(tasks));
    const plan = planWindow({
      heights,
      offsets,
      viewTop: view.top,
      viewBottom: view.bottom,
      overscanPx: OVERSCAN_PX,
      pinned,
      mounted: (i) => this.#mounted.has(tasks[i]!),
      mountBudget: MOUNTS_PER_FRAME,
    });
    this.#mounted.clear();
    const nearTop = view.top - OVERSCAN_PX;
    const nearBottom = view.bottom + OVERSCAN_PX;
    let top = 0;
    const slots = plan.drawn.map(({ index, spaceBefore }): CardSlot<T> => {
      const task = tasks[index]!;
      this.#mounted.add(task);
      top += spaceBefore;
      const height = heights[index]!;
      const far = top + height < nearTop || top > nearBottom;
      top += height;
      return { task, index, spaceBefore, far, height };
    });
    if (!sameSlots(slots, this.slots)) this.slots = slots;
    this.spaceAfter = plan.spaceAfter;
    if (plan.waiting > 0) this.#schedule();
  }

  #layoutOf(tasks: readonly T[]): CardLayout {
    const guess = guessHeight(this.#heights.values(), FIRST_GUESS_PX);
    const heights = tasks.map((task) => this.#heights.get(task) ?? guess);
    const pinned = new Set<number>();
    for (let i = 0; i < Math.min(this.#alwaysDrawn, tasks.length); i++) pinned.add(i);
    tasks.forEach((task, i) => {
      if (this.#askers.has(task) || task === this.#open || task === this.#focused) pinned.add(i);
    });
    return { heights, offsets: offsetsOf(heights), pinned };
  }
}

interface CardLayout {
  readonly heights: readonly number[];
  readonly offsets: { readonly tops: readonly number[]; readonly total: number };
  readonly pinned: ReadonlySet<number>;
}

function sameSlots<T>(a: readonly CardSlot<T>[], b: readonly CardSlot<T>[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (slot, i) =>
        slot.task === b[i]!.task &&
        slot.index === b[i]!.index &&
        slot.far === b[i]!.far &&
        Math.abs(slot.spaceBefore - b[i]!.spaceBefore) < 0.5 &&
        (!slot.far || Math.abs(slot.height - b[i]!.height) < 0.5),
    )
  );
}

/** The element the list scrolls in (its column on a wide screen), or null for the page itself. */
function scrollerOf(element: HTMLElement): Element | null {
  for (let at = element.parentElement; at; at = at.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(at).overflowY)) return at;
  }
  return null;
}
