/** The same list rotated left by `by`: every system goes first once in `length` repeats. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const at = by % items.length;
  return [...items.slice(at), ...items.slice(0, at)];
}

/**
 * Mean share of each reference top list that `other` also returned, over the queries whose
 * reference list is not empty (NaN when none is: an empty reference says nothing about recall).
 */
export function meanOverlap(reference: readonly string[][], other: readonly string[][]): number {
  let sum = 0;
  let counted = 0;
  for (const [i, ref] of reference.entries()) {
    if (ref.length === 0) continue;
    const got = new Set(other[i]);
    sum += ref.filter((source) => got.has(source)).length / ref.length;
    counted++;
  }
  return counted === 0 ? Number.NaN : sum / counted;
}
