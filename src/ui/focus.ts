/**
 * Keeps keyboard focus somewhere sensible when the element holding it goes
 * away (an answered form, a dismissed card). Without this, focus falls to
 * <body> and a keyboard user starts again from the top of the page.
 */
import { tick } from 'svelte';
import type { Attachment } from 'svelte/attachments';
import { focusHeir } from './state/focus-heir.ts';

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

/** What a keyboard can reach inside a form, in document order. */
const FIELDS = 'input:not([type="hidden"]), select, textarea, button';

/**
 * Focuses the first enabled field of `container` (a form just shown for the
 * tool the learner picked), so the next keys type into it instead of
 * walking back through the page. False when it has none.
 */
export function focusFirstField(container: HTMLElement | null): boolean {
  const field = [...(container?.querySelectorAll<HTMLElement>(FIELDS) ?? [])].find(
    (el) => !(el as HTMLInputElement).disabled,
  );
  field?.focus();
  return field !== undefined;
}

/** What the keyboard stops on in a focus group. */
const CONTROLS = 'button, input:not([type="hidden"]), select, textarea';

type Control = HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * `{@attach keepsFocusInGroup}` on a group of controls that may disable
 * themselves (groups not nested): when the control holding the focus is disabled, the focus
 * moves to the nearest still-enabled control of the group (`focusHeir`).
 * Watched on the `disabled` attribute itself, so whatever disabled it (a
 * click, a key, a shortcut from elsewhere, a live step) is covered; the
 * observer runs in the same task as the change, before the browser's
 * focus fixup drops the focus to `<body>`.
 */
export const keepsFocusInGroup: Attachment<HTMLElement> = (group) => {
  /**
   * The group's control that last took the focus. Not cleared when the focus leaves the
   * group: a later disabling moves the focus only if it is on that control or on <body>.
   */
  let held: Control | undefined;
  const onfocusin = (event: FocusEvent): void => {
    const target = event.target as Element;
    held = target.matches(CONTROLS) ? (target as Control) : undefined;
  };
  const watch = new MutationObserver((records) => {
    const focused = document.activeElement;
    const lost = records.some(
      ({ target }) =>
        target === held &&
        held.disabled &&
        (focused === held || focused === null || focused === document.body),
    );
    if (!lost || !held) return;
    const heir = focusHeir(
      [...group.querySelectorAll<Control>(CONTROLS)],
      held,
      (control) => !control.disabled && control.getClientRects().length > 0,
    );
    held = undefined;
    heir?.focus();
  });
  watch.observe(group, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
  group.addEventListener('focusin', onfocusin);
  return () => {
    watch.disconnect();
    group.removeEventListener('focusin', onfocusin);
  };
};
