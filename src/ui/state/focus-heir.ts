/**
 * Which control of a group takes the keyboard focus when the focused one
 * disables itself (History's « and Back at the oldest step, Forward once
 * live, Add breakpoint once its fields are cleared). Left alone, the
 * browser drops the focus to `<body>`: the next key (End, Esc) then
 * reaches nothing, and Tab starts again from the top.
 */

/**
 * The enabled control nearest to `from` in `controls` (document order),
 * the one before it first: the way the reader came is the way still open
 * (at the oldest step Back is off, Forward on; once live, Forward is off
 * and Back on). Undefined when `from` is not in the group or none is enabled.
 */
export function focusHeir<T>(
  controls: readonly T[],
  from: T,
  enabled: (control: T) => boolean,
): T | undefined {
  const at = controls.indexOf(from);
  if (at < 0) return undefined;
  for (let distance = 1; distance < controls.length; distance++) {
    const before = controls[at - distance];
    if (before !== undefined && enabled(before)) return before;
    const after = controls[at + distance];
    if (after !== undefined && enabled(after)) return after;
  }
  return undefined;
}
