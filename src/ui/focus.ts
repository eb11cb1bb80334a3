/**
 * Keeps keyboard focus somewhere sensible when the element holding it goes
 * away (an answered form, a dismissed card). Without this, focus falls to
 * <body> and a keyboard user starts again from the top of the page.
 */
import { tick } from 'svelte';

/**
 * After the next render, focuses `target` if focus was lost (left on <body> or detached).
 * A task's state reaches its card in the next animation frame (state/per-frame.ts), so
 * this waits for that frame's render too, not only for Svelte's next tick.
 */
export async function keepFocusIn(target: () => HTMLElement | undefined): Promise<void> {
  await tick();
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await tick();
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  target()?.focus();
}

/**
 * After the item at `index` of `items` was removed, the item now at its place,
 * else the one before it, else `fallback`. Items need tabindex="-1".
 */
export function neighbourOf(
  container: HTMLElement | undefined,
  selector: string,
  index: number,
  fallback: HTMLElement | undefined,
): HTMLElement | undefined {
  const items = container ? [...container.querySelectorAll<HTMLElement>(selector)] : [];
  return items[index] ?? items[index - 1] ?? fallback;
}
