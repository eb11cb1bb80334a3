/**
 * Which view fills the page: the playground (the default) or one of the
 * learning views. Kept in the address (`?view=interview`), so every view
 * can be linked to and the browser's back button moves between them.
 */
import { viewFromSearch, viewHref, type ViewId } from './views.ts';

export class PageView {
  #current = $state<ViewId>(
    typeof location === 'undefined' ? 'playground' : viewFromSearch(location.search),
  );

  constructor() {
    if (typeof window !== 'undefined')
      addEventListener('popstate', () => (this.#current = viewFromSearch(location.search)));
  }

  get current(): ViewId {
    return this.#current;
  }

  /** Shows `view` and records it in the address (a new history entry). */
  go(view: ViewId): void {
    if (view === this.#current) return;
    history.pushState(null, '', viewHref(view, location.search));
    this.#current = view;
  }
}

export const pageView = new PageView();
