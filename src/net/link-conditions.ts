/**
 * How bad the simulated network is, per direction. `out` is page -> server,
 * `in` is server -> page, the same words the wire log uses.
 */
export type LinkDirection = 'out' | 'in';

export interface DirectionConditions {
  /** Base one-way delay, ms. */
  latencyMs: number;
  /** Each message's delay varies uniformly by up to +/- this much, ms (never below 0). */
  jitterMs: number;
  /** Chance (0..1) that a message never arrives. */
  lossRate: number;
  /** Chance (0..1) that a message arrives twice. */
  duplicateRate: number;
  /** Chance (0..1) that a message is held back so messages sent after it can overtake it. */
  reorderRate: number;
}

export type LinkConditions = Record<LinkDirection, DirectionConditions>;

/** Bounds the page offers; kept under the client's request timeout so a slow link is not a lossy one. */
export const LIMITS = {
  latencyMs: { min: 0, max: 1500 },
  jitterMs: { min: 0, max: 500 },
  lossRate: { min: 0, max: 1 },
  duplicateRate: { min: 0, max: 1 },
  reorderRate: { min: 0, max: 1 },
} as const satisfies Record<keyof DirectionConditions, { min: number; max: number }>;

/** How long a reordered message is held at most when nothing overtakes it, ms. */
export const REORDER_HOLD_MS = 600;

export const CLEAN: DirectionConditions = {
  latencyMs: 0,
  jitterMs: 0,
  lossRate: 0,
  duplicateRate: 0,
  reorderRate: 0,
};

export function cleanLink(): LinkConditions {
  return { out: { ...CLEAN }, in: { ...CLEAN } };
}

/** Clamps every field into LIMITS; NaN becomes the minimum. */
export function clampConditions(conditions: DirectionConditions): DirectionConditions {
  const clamp = (key: keyof DirectionConditions): number => {
    const { min, max } = LIMITS[key];
    const value = conditions[key];
    return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
  };
  return {
    latencyMs: clamp('latencyMs'),
    jitterMs: clamp('jitterMs'),
    lossRate: clamp('lossRate'),
    duplicateRate: clamp('duplicateRate'),
    reorderRate: clamp('reorderRate'),
  };
}

/** Whether a direction changes anything at all. */
export function isClean(conditions: DirectionConditions): boolean {
  return Object.values(conditions).every((value) => value === 0);
}
