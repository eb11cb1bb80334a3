/**
 * A link that loads another page (a scenario's "Run the experiment") leaves
 * this one, and the browser's Back loads it again from scratch: the focus on
 * <body>, the reader at the top, the link they came from lost. Before the
 * page goes, the link notes itself in the current history entry's state (the
 * address is untouched); drawn again by that entry, it takes the focus back,
 * in view, and the note is spent.
 */
import type { Attachment } from 'svelte/attachments';

const NOTE = 'returnFocusTo';

interface FocusNote {
  /** What the link is to the page: its `data-` name and value (`scenario`, `no-tool-flag`). */
  readonly kind: string;
  readonly value: string;
  /** Which of the page's links with that value, in document order. */
  readonly index: number;
}

const stateObject = (): Record<string, unknown> =>
  typeof history.state === 'object' && history.state !== null
    ? (history.state as Record<string, unknown>)
    : {};

/** The links of the page noted as `kind` = `value`, in document order. */
const linksLike = (kind: string, value: string): HTMLElement[] =>
  [...document.querySelectorAll<HTMLElement>(`[data-${kind}]`)].filter(
    (el) => el.dataset[kind] === value,
  );

/**
 * On a link carrying `data-<kind>`: a plain press notes it before the page is
 * left; mounted again by the entry that holds the note, it is focused.
 */
export function returnsFocusHere(kind: string): Attachment<HTMLElement> {
  return (link) => {
    const value = (): string => link.dataset[kind] ?? '';
    const note = (event: MouseEvent): void => {
      // A press that opens another tab or window leaves this page where it is.
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)
        return;
      const index = linksLike(kind, value()).indexOf(link);
      const focusNote: FocusNote = { kind, value: value(), index };
      history.replaceState({ ...stateObject(), [NOTE]: focusNote }, '');
    };
    link.addEventListener('click', note);
    const noted = stateObject()[NOTE] as FocusNote | undefined;
    if (noted?.kind === kind && noted.value === value()) {
      // After the frame: the page's other links are drawn by then, so the index means the same.
      requestAnimationFrame(() => {
        if (!link.isConnected || linksLike(kind, value()).indexOf(link) !== noted.index) return;
        const { [NOTE]: _spent, ...rest } = stateObject();
        history.replaceState(rest, '');
        link.focus({ preventScroll: true });
        link.scrollIntoView({ block: 'center', behavior: 'instant' });
      });
    }
    return () => link.removeEventListener('click', note);
  };
}
