import { describe, expect, it } from 'vitest';
import { nextSelection } from './series-selection.ts';

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
