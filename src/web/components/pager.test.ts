import { describe, expect, it } from 'vitest';
import { rangeText } from './pager.tsx';

describe('the pager range', () => {
  it('when the total is counted, then it reads the rows shown of that total', () => {
    expect(rangeText(3, 10, 2991)).toBe('21–30 of 2,991');
  });
  it('when the total is the database estimate, then it reads "of about"', () => {
    expect(rangeText(1, 25, 4500, false, true)).toBe('1–25 of about 4,500');
  });
  it('when the list stopped counting at its bound, then it reads the bound with a plus and no "about"', () => {
    expect(rangeText(2, 10, 10_000, true, true)).toBe('11–20 of 10,000+');
  });
});
