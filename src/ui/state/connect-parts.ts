/**
 * The Connect panel's parts, out of the first screen's bundle: the connect form (the built-in
 * server's page folds it: loaded when the fold is first opened, hovered or focused) and the panel
 * of a remote server's page (loaded with such a page only: `main.ts` asks for it at once).
 */
import { onFirstUse } from './on-first-use.ts';

export const loadConnectForm = onFirstUse(() => import('../components/ConnectForm.svelte'));
export const loadOwnServerPanel = onFirstUse(() => import('../components/OwnServerPanel.svelte'));
