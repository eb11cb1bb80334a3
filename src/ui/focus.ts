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

/** The elements `keepsFocusInGroup` is attached to: a control belongs to the nearest one around it. */
const groups = new WeakSet<Element>();

function groupOf(control: Element): Element | undefined {
  for (let at = control.parentElement; at; at = at.parentElement) if (groups.has(at)) return at;
  return undefined;
}

/** Whether `control` comes before the place `removal` took its nodes from, in document order. */
function beforeRemoval(control: Node, { previousSibling, nextSibling, target }: MutationRecord) {
  if (previousSibling?.isConnected)
    return (
      control === previousSibling ||
      (previousSibling.compareDocumentPosition(control) &
        (Node.DOCUMENT_POSITION_PRECEDING | Node.DOCUMENT_POSITION_CONTAINED_BY)) !==
        0
    );
  const after = nextSibling?.isConnected ? nextSibling : target;
  return (after.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
}

/**
 * `{@attach keepsFocusInGroup}` on a group of controls that may disable
 * themselves or go: when the control holding the focus is disabled or
 * removed, the focus moves to the nearest still-enabled control of the
 * group (`focusHeir`; for a removed one, nearest to where it stood).
 * Groups may nest: a control is its nearest group's, and only that group
 * hands its focus on, among its own controls. Watched on the DOM itself
 * (the `disabled` attribute, removed nodes), so whatever did it (a click, a
 * key, a shortcut from elsewhere, a live step) is covered; a disabling is
 * seen in the same task as the change, before the browser's focus fixup
 * drops the focus to `<body>`.
 */
export const keepsFocusInGroup: Attachment<HTMLElement> = (group) => {
  groups.add(group);
  /**
   * The group's control that last took the focus. Not cleared when the focus leaves the
   * group: a later disabling moves the focus only if it is on that control or on <body>.
   */
  let held: Control | undefined;
  const onfocusin = (event: FocusEvent): void => {
    const target = event.target as Element;
    held = target.matches(CONTROLS) && groupOf(target) === group ? (target as Control) : undefined;
  };
  const mine = (): Control[] =>
    [...group.querySelectorAll<Control>(CONTROLS)].filter((c) => groupOf(c) === group);
  const usable = (control: Control): boolean =>
    !control.disabled && control.getClientRects().length > 0;
  const watch = new MutationObserver((records) => {
    const gone = held;
    const focused = document.activeElement;
    if (!gone || !(focused === gone || focused === null || focused === document.body)) return;
    let heir: Control | undefined;
    const removal = records.find((r) => [...r.removedNodes].some((n) => n.contains(gone)));
    if (removal && !gone.isConnected) {
      // Where it stood: its group's controls before that place, then after it.
      const controls = mine();
      const place = gone;
      const before = controls.filter((c) => beforeRemoval(c, removal));
      const after = controls.filter((c) => !before.includes(c));
      heir = focusHeir([...before, place, ...after], place, usable);
    } else if (gone.disabled && records.some(({ target }) => target === gone)) {
      heir = focusHeir(mine(), gone, usable);
    } else return;
    held = undefined;
    heir?.focus();
  });
  watch.observe(group, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });
  group.addEventListener('focusin', onfocusin);
  return () => {
    watch.disconnect();
    groups.delete(group);
    group.removeEventListener('focusin', onfocusin);
  };
};
