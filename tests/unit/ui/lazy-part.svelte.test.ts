/**
 * `LazyPart`, a part of the page whose code loads on first use: the loading
 * note's live region while it comes, the part once it is there, or an alert in
 * plain words (the browser's own under a disclosure) with Try again, the focus
 * waiting at the place's safe spot and back on Try again if the try fails too;
 * a fold's new opening tries again; Close and Esc where the part covers the page.
 */
import { createRawSnippet, flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, expect, it } from 'vitest';
import LazyPart from '../../../src/ui/components/LazyPart.svelte';
import { onFirstUse } from '../../../src/ui/state/on-first-use.ts';

const CHUNK_FAILED = 'Failed to fetch dynamically imported module: http://x.test/assets/Card-a1.js';

interface Module {
  words: string;
}

/** A loader (as `onFirstUse` makes them) whose loads the test settles one by one. */
function controlledLoader() {
  const pending: { resolve: (module: Module) => void; reject: (error: Error) => void }[] = [];
  const load = onFirstUse(
    () => new Promise<Module>((resolve, reject) => pending.push({ resolve, reject })),
  );
  return { load, pending };
}

/** The loaded part: the module's words in a paragraph. */
const part = createRawSnippet((module: () => Module) => ({
  render: () => `<p class="part">${module().words}</p>`,
}));

/** Lets the settled promise reach the `{#await}` and its branch draw. */
async function settle(): Promise<void> {
  await tick();
  await Promise.resolve();
  flushSync();
}

function place() {
  const target = document.createElement('div');
  const heading = document.createElement('h2');
  heading.tabIndex = -1;
  document.body.append(heading, target);
  return { target, heading };
}

afterEach(() => {
  document.body.replaceChildren();
});

it('loading: the note is a live region from the start, then the part comes in its place', async () => {
  const { load, pending } = controlledLoader();
  const { target, heading } = place();
  const lazy = mount(LazyPart, {
    target,
    props: { load, what: 'the task cards', retryFocus: () => heading, children: part },
  });
  flushSync();
  expect(target.querySelector('[role="status"]')).not.toBeNull();
  expect(pending).toHaveLength(1);

  pending[0]!.resolve({ words: 'the cards' });
  await settle();
  expect(target.querySelector('.part')?.textContent).toBe('the cards');
  expect(target.querySelector('[role="status"]')).toBeNull();
  unmount(lazy);
});

it("loading: a failed load is said in plain words with the browser's own kept, and Try again loads again, the focus waiting on the heading and back on Try again when it fails too", async () => {
  const { load, pending } = controlledLoader();
  const { target, heading } = place();
  const lazy = mount(LazyPart, {
    target,
    props: { load, what: 'the task cards', retryFocus: () => heading, children: part },
  });
  flushSync();
  // The reader is on the heading (say, a fold's summary they just opened).
  heading.focus();
  pending[0]!.reject(new TypeError(CHUNK_FAILED));
  await settle();
  const alert = target.querySelector('[role="alert"]');
  expect(alert?.querySelector('p')?.textContent).toBe(
    'The task cards could not be loaded: the network or the server did not answer.',
  );
  expect(alert?.querySelector('details code')?.textContent).toBe(CHUNK_FAILED);
  // The alert comes where the part is: it does not take the focus from where the reader is.
  expect(document.activeElement).toBe(heading);

  const tryAgain = () =>
    [...target.querySelectorAll('button')].find((button) => button.textContent === 'Try again')!;
  tryAgain().click();
  flushSync();
  expect(document.activeElement).toBe(heading);
  expect(pending).toHaveLength(2);
  pending[1]!.reject(new TypeError(CHUNK_FAILED));
  await settle();
  expect(document.activeElement).toBe(tryAgain());

  tryAgain().click();
  flushSync();
  pending[2]!.resolve({ words: 'the cards' });
  await settle();
  expect(target.querySelector('.part')?.textContent).toBe('the cards');
  expect(target.querySelector('[role="alert"]')).toBeNull();
  expect(document.activeElement).toBe(heading);
  unmount(lazy);
});

it('loading: a failure that is not a fetch says its own words, with nothing under a disclosure', async () => {
  const { load, pending } = controlledLoader();
  const { target, heading } = place();
  const lazy = mount(LazyPart, {
    target,
    props: { load, what: 'the results', retryFocus: () => heading, children: part },
  });
  flushSync();
  pending[0]!.reject(new Error('x is not a function'));
  await settle();
  expect(target.querySelector('[role="alert"] p')?.textContent).toBe(
    'The results could not be loaded: x is not a function.',
  );
  expect(target.querySelector('details')).toBeNull();
  unmount(lazy);
});

it("loading: a fold's new opening after a failed load tries again; once loaded, a new opening loads nothing", async () => {
  const { load, pending } = controlledLoader();
  const { target, heading } = place();
  const props = $state({
    load,
    what: 'the form',
    retryFocus: () => heading,
    openings: 1,
    children: part,
  });
  const lazy = mount(LazyPart, { target, props });
  flushSync();
  pending[0]!.reject(new TypeError(CHUNK_FAILED));
  await settle();
  expect(target.querySelector('[role="alert"]')).not.toBeNull();

  props.openings = 2;
  flushSync();
  expect(pending).toHaveLength(2);
  pending[1]!.resolve({ words: 'the form' });
  await settle();
  expect(target.querySelector('.part')?.textContent).toBe('the form');

  const drawn = target.querySelector('.part');
  props.openings = 3;
  await settle();
  expect(pending).toHaveLength(2);
  // The same element: the part stays mounted (what it holds is kept).
  expect(target.querySelector('.part')).toBe(drawn);
  unmount(lazy);
});

it('keyboard: a part that covers the page puts the focus on Try again as the alert comes; Close and Esc close it', async () => {
  const { load, pending } = controlledLoader();
  const { target, heading } = place();
  let closed = 0;
  const lazy = mount(LazyPart, {
    target,
    props: {
      load,
      what: 'the statechart view',
      retryFocus: () => heading,
      takesFocus: true,
      onclose: () => closed++,
      children: part,
    },
  });
  flushSync();
  pending[0]!.reject(new TypeError(CHUNK_FAILED));
  await settle();
  const buttons = [...target.querySelectorAll('button')];
  expect(buttons.map((button) => button.textContent)).toEqual(['Try again', 'Close']);
  expect(document.activeElement).toBe(buttons[0]);

  buttons[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  expect(closed).toBe(1);
  buttons[1]!.click();
  expect(closed).toBe(2);
  unmount(lazy);
});
