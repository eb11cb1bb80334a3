/**
 * The only runtime globals that code shared by every runtime (`src/protocol`, `src/machines`)
 * may use. Each exists alike in the page (DOM), in a worker (WebWorker) and in Node, so
 * `tsconfig.shared.json` declares just these instead of taking any one runtime's library.
 */

/** UTF-8 encoding (WHATWG Encoding). */
declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}

/** Base64 of a binary string (HTML's `btoa`, global in Node too). */
declare function btoa(data: string): string;
