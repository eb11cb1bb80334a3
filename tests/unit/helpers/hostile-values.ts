/**
 * Values that break naive code, for the fuzz tests: nasty strings, values
 * of the wrong type, deep nesting, and objects carrying prototype keys.
 */
import fc from 'fast-check';

/** Strings that break naive code: markup, controls, lone surrogates, sentinels, prototype names. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    'constructor',
    'prototype',
    '<img src=x onerror=alert(1)>',
    '\u0000',
    '\r\nX-Injected: 1',
    '\ud800',
    '=?base64?AAA?=',
    '=?base64?4pyT?=',
    '💥'.repeat(50),
    '../../etc/passwd',
    '%00',
  ),
);

/** A value of the wrong type for anything expecting a non-empty string. */
export const notAString: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Nested `depth` levels deep: arrays or objects. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** An object whose own keys include `__proto__` / `constructor`, as JSON.parse makes them. */
export function prototypeKeys(): Record<string, unknown> {
  return JSON.parse(
    '{"__proto__":{"polluted":true,"extensions":{"io.modelcontextprotocol/tasks":{}}},"constructor":{"prototype":{"polluted":true}}}',
  ) as Record<string, unknown>;
}
