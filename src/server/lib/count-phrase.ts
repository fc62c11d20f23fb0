/** One kind of record that refers to another, with its count. */
export type RefCount = readonly [count: number, singular: string, plural: string];

/** "12 pads and 3 invoices" from the non-zero counts; null when nothing refers. */
export function countPhrase(counts: readonly RefCount[]): { text: string; plural: boolean } | null {
  const parts = counts.filter(([n]) => n > 0);
  if (parts.length === 0) return null;
  const words = parts.map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  const text = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return { text, plural: parts.length > 1 || parts[0][0] !== 1 };
}
