/**
 * Which view fills the page: the playground (the default) or one of the
 * learning views. Kept in the address (`?view=interview`), so every view
 * can be linked to and the browser's back button moves between them.
 */

export const VIEWS = [
  { id: 'playground', label: 'Playground' },
  { id: 'interview', label: 'Interview' },
  { id: 'myths', label: 'Myths' },
  { id: 'changed', label: 'What changed' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

/** The view an address asks for; anything unknown is the playground. */
export function viewFromSearch(search: string): ViewId {
  const asked = new URLSearchParams(search).get('view');
  return VIEWS.find((v) => v.id === asked)?.id ?? 'playground';
}

/** The address of `view`, keeping the page's other parameters (but never a scenario: it would re-run). */
export function viewHref(view: ViewId, search = ''): string {
  const params = new URLSearchParams(search);
  params.delete('scenario');
  params.delete('q');
  if (view === 'playground') params.delete('view');
  else params.set('view', view);
  const query = params.toString();
  return query === '' ? './' : `?${query}`;
}

export class PageView {
  #current = $state<ViewId>(typeof location === 'undefined' ? 'playground' : viewFromSearch(location.search));

  constructor() {
    if (typeof window !== 'undefined') addEventListener('popstate', () => (this.#current = viewFromSearch(location.search)));
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
