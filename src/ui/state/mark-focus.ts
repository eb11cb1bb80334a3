/**
 * Keeps the keyboard on a timeline's fault mark while the timeline
 * rescales. A running task's timeline widens its span every frame, so a
 * focused mark can merge into a neighbour: its element goes, and with it
 * the focus (to `<body>`) and the tooltip. This remembers the fault the
 * focused mark is drawn under, and once the marks are drawn again, focuses
 * the mark that holds that fault now (`markHolding`, tested in Node).
 */
import { markHolding, markKey, type FaultMark } from './task-timeline.ts';

export class MarkFocus {
  /** The focused mark's key (its first fault's `seq`), or none. */
  #seq: number | undefined;

  focused(mark: FaultMark): void {
    this.#seq = markKey(mark);
  }

  /** Tabbing or clicking away forgets it; a mark taken away by a merge is no longer connected, and is not forgotten. */
  blurred(mark: FaultMark, element: Element): void {
    queueMicrotask(() => {
      if (element.isConnected && this.#seq === markKey(mark)) this.#seq = undefined;
    });
  }

  /** After `marks` are drawn in `plot` (each `[data-key]`): if the focus was lost with a mark, onto the one holding its fault. */
  restore(plot: Element | undefined, marks: readonly FaultMark[]): void {
    const holder = this.#seq === undefined ? undefined : markHolding(marks, this.#seq);
    if (!holder || !plot || plot.contains(document.activeElement)) return;
    plot.querySelector<HTMLElement | SVGElement>(`[data-key="${markKey(holder)}"]`)?.focus();
  }
}
