import { describe, expect, it } from 'bun:test';
import { leastWidth, textOf } from './VirtualList.tsx';

/** A component that draws its own content: no text to read from its props. */
const Badge = (_: { level: string }) => null;

describe('leastWidth', () => {
  it('adds each track’s least width, the gaps between them and the padding either side', () => {
    // 6 + 8 + 9 = 23rem of tracks, 2 gaps, 2rem of padding; a bare fr track counts nothing.
    expect(leastWidth(['6rem', 'minmax(8rem, 1fr)', '9rem'])).toBe('27rem');
    expect(leastWidth(['1fr', undefined, 'minmax( 2.5rem , 2fr)'])).toBe('6.5rem');
    expect(leastWidth([])).toBe('2rem');
  });
});

describe('textOf', () => {
  it('finds the text of plain values and of elements around text, and none in a component without children', () => {
    expect(textOf('Olivia Smith')).toBe('Olivia Smith');
    expect(textOf(42)).toBe('42');
    expect(
      textOf(
        <a href="/x">
          <span>harborne@</span>pharmacy.example.com
        </a>,
      ),
    ).toBe('harborne@pharmacy.example.com');
    expect(textOf(<Badge level="warn" />)).toBe('');
    expect(textOf(null)).toBe('');
  });
});
