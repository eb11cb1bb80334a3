/**
 * Time, as the network layer and the client see it: the clock's `Timers`
 * (src/clock), under the name this layer has always used. Tests drive it with
 * one simulated clock (xstate's `SimulatedClock` fits this shape); the page
 * gives its world clock, which can pause and slow down.
 */
import { realTimers, type Timers } from '../clock/timers.ts';

export type Scheduler = Timers;

/** The browser's (or Node's) clock and timers. */
export const realScheduler: Scheduler = realTimers;
