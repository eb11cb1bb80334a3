/**
 * Tab at either end of the page goes round to the other end (the task
 * detail, not modal, hands the keyboard on to the header), never to <body>.
 */
import { expect, it } from 'vitest';
import { wrapTarget } from '../../../src/ui/focus-cycle.ts';

it('Tab from the last control goes to the first, Shift+Tab from the first to the last', () => {
  const order = ['skip link', 'Drop connection', 'Close', 'history step', 'fault mark'];
  expect(wrapTarget(order, 'fault mark', false)).toBe('skip link');
  expect(wrapTarget(order, 'skip link', true)).toBe('fault mark');
});

it('anywhere else, and from nothing focused, the browser moves the focus itself', () => {
  const order = ['skip link', 'Close', 'fault mark'];
  expect(wrapTarget(order, 'Close', false)).toBeUndefined();
  expect(wrapTarget(order, 'Close', true)).toBeUndefined();
  expect(wrapTarget(order, 'skip link', false)).toBeUndefined();
  expect(wrapTarget(order, 'fault mark', true)).toBeUndefined();
  expect(wrapTarget(order, undefined, false)).toBeUndefined();
  expect(wrapTarget(['only'], 'only', false)).toBeUndefined();
});
