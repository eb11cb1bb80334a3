/**
 * Which view fills the page: the playground (the default) or one of the
 * learning views. Kept in the address (`?view=interview`), so every view
 * can be linked to and the browser's back button moves between them.
 */
import { ruleFromSearch, ruleHref, viewFromSearch, viewHref, type ViewId } from './views.ts';

export class PageView {
  #current = $state<ViewId>(
    typeof location === 'undefined' ? 'playground' : viewFromSearch(location.search),
  );

  #rule = $state<string | undefined>(
    typeof location === 'undefined' ? undefined : ruleFromSearch(location.search),
  );

  constructor() {
    if (typeof window !== 'undefined')
      addEventListener('popstate', () => {
        this.#current = viewFromSearch(location.search);
        this.#rule = ruleFromSearch(location.search);
      });
  }

  /** The digest rule the spec view is at (`&rule=T12`), if any. */
  get rule(): string | undefined {
    return this.#rule;
  }

  #entries = 0;

  /** Whether this page added a history entry of its own, so Back stays inside it. */
  get canGoBack(): boolean {
    return this.#entries > 0;
  }

  /** Shows the digest at rule `id` (a new history entry, so Back returns to where the link was). */
  openRule(id: string): void {
    if (this.#current === 'spec' && this.#rule === id) return;
    history.pushState(null, '', ruleHref(id, location.search));
    this.#entries++;
    this.#current = 'spec';
    this.#rule = id;
  }

  get current(): ViewId {
    return this.#current;
  }

  /** Shows `view` and records it in the address (a new history entry). */
  go(view: ViewId): void {
    if (view === this.#current) return;
    history.pushState(null, '', viewHref(view, location.search));
    this.#entries++;
    this.#current = view;
    this.#rule = undefined;
  }
}

export const pageView = new PageView();
