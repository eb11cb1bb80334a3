/**
 * What the wire log and the sequence view read: the live `WireLog`, or a
 * replay's wire at the slider's moment (`ReplayWire`). Views take this, so
 * one component draws both.
 */
import type { WireRow } from '../../client/wire-annotation.ts';
import type { FaultNotice } from '../../session/fault-notices.ts';

export interface WireView {
  /** Every row kept, oldest first. */
  readonly rows: readonly WireRow[];
  /** The rows matching the filter box. */
  readonly visible: readonly WireRow[];
  /** Drop, kill, restart and offline, each placed after the wire entry logged before it. */
  readonly faults: readonly FaultNotice[];
  /** The filter box's words. */
  filter: string;
  /** Empties the log; absent where the log is a recording (read-only). */
  readonly clear?: () => void;
}
