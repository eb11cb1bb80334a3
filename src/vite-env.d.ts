/// <reference types="svelte" />
/// <reference types="vite/client" />

/** package.json's version, set by vite.config.ts (`define`). */
declare const __APP_VERSION__: string;
