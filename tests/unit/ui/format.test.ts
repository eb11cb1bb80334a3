import { describe, expect, it } from 'vitest';
import { codeSpans, counted, requestIdText } from '../../../src/ui/format.ts';

describe('codeSpans', () => {
  it('splits Markdown code spans from plain text', () => {
    expect(codeSpans('Sleeps for `seconds` and returns.')).toEqual([
      { text: 'Sleeps for ', code: false },
      { text: 'seconds', code: true },
      { text: ' and returns.', code: false },
    ]);
  });

  it('leaves a lone backtick and markup as plain text', () => {
    expect(codeSpans('a ` b <b>c</b>')).toEqual([{ text: 'a ` b <b>c</b>', code: false }]);
    expect(codeSpans('`<img src=x>`')).toEqual([{ text: '<img src=x>', code: true }]);
  });
});

describe('counted', () => {
  it('says one without the plural and every other count with it', () => {
    expect(counted(1, 'fault')).toBe('1 fault');
    expect(counted(0, 'fault')).toBe('0 faults');
    expect(counted(3, 'poll')).toBe('3 polls');
    expect(counted(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('requestIdText', () => {
  it("the page's own ids read #n; a side connection's, which count from 1 too, carry its name", () => {
    expect(requestIdText(3, undefined)).toBe('#3');
    expect(requestIdText(1, 'x-ray')).toBe('x-ray:1');
    expect(requestIdText(1, 'x-ray')).not.toBe(requestIdText(1, undefined));
    expect(requestIdText(null, undefined)).toBe('');
    expect(requestIdText(undefined, 'x-ray')).toBe('');
  });
});
