/**
 * Keeps keyboard focus somewhere sensible when the element holding it goes
 * away (an answered form, a dismissed card). Without this, focus falls to
 * <body> and a keyboard user starts again from the top of the page.
 */
import { tick } from 'svelte';

/** After the next render, focuses `target` if focus was lost (left on <body> or detached). */
export async function keepFocusIn(target: () => HTMLElement | undefined): Promise<void> {
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
