/** Page entry: builds the playground state, mounts the UI, then connects. */
import { mount } from 'svelte';
import App from './ui/App.svelte';
import { Playground } from './ui/state/playground.svelte.ts';

const playground = new Playground();
mount(App, { target: document.getElementById('app')!, props: { playground } });
void playground.start();
addEventListener('pagehide', () => playground.stop());
