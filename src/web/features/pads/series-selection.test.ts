import { describe, expect, it } from 'vitest';
import { nextSelection, parseTypedRange } from './series-selection.ts';

describe('picking numbers in the series grid', () => {
  it('when nothing is picked and a number is tapped, then that number alone is picked', () => {
    expect(nextSelection(null, null, 1201, false)).toEqual({ from: 1201, to: 1201 });
  });

  it('when one number is picked and another is tapped, then the run between them is picked, in either order', () => {
    expect(nextSelection({ from: 1201, to: 1201 }, 1201, 1237, false)).toEqual({ from: 1201, to: 1237 });
    expect(nextSelection({ from: 1237, to: 1237 }, 1237, 1201, false)).toEqual({ from: 1201, to: 1237 });
  });

  it('when the one picked number is tapped again, then nothing is picked', () => {
    expect(nextSelection({ from: 1201, to: 1201 }, 1201, 1201, false)).toBeNull();
  });

  it('when a run is picked and a number is tapped, then picking starts over at that number', () => {
    expect(nextSelection({ from: 1201, to: 1237 }, 1201, 1240, false)).toEqual({ from: 1240, to: 1240 });
  });

  it('when a run is picked and another number is shift-clicked, then the run stretches from the first number picked', () => {
    expect(nextSelection({ from: 1201, to: 1210 }, 1201, 1237, true)).toEqual({ from: 1201, to: 1237 });
    expect(nextSelection({ from: 1201, to: 1237 }, 1201, 1195, true)).toEqual({ from: 1195, to: 1201 });
  });

  it('when nothing was picked yet and a number is shift-clicked, then it is picked alone', () => {
    expect(nextSelection(null, null, 1220, true)).toEqual({ from: 1220, to: 1220 });
  });
});

describe('typing a range beside the grid', () => {
  const pad = { from: 100251, to: 100300 };

  it('when a range is typed with an en dash, a hyphen or "to", or backwards, then that run is picked', () => {
    expect(parseTypedRange('100251\u2013100287', pad)).toEqual({ range: { from: 100251, to: 100287 } });
    expect(parseTypedRange(' 100251 - 100287 ', pad)).toEqual({ range: { from: 100251, to: 100287 } });
    expect(parseTypedRange('100287 to 100251', pad)).toEqual({ range: { from: 100251, to: 100287 } });
  });

  it('when one number is typed, then that number alone is picked', () => {
    expect(parseTypedRange('100260', pad)).toEqual({ range: { from: 100260, to: 100260 } });
  });

  it('when the text is not a range or leaves the pad, then it says why', () => {
    expect(parseTypedRange('abc', pad)).toEqual({ error: 'Type a number or a range, e.g. 100251\u2013100287' });
    expect(parseTypedRange('100250-100260', pad)).toEqual({ error: 'This pad holds 100251\u2013100300' });
  });
});
