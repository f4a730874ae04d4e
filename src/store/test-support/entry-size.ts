/** Sizes vary, with a 1.5 MB entry now and then, so a kill often lands in the middle of a write. */
export function entrySize(sequence: number): number {
  return sequence % 5 === 0 ? 1_500_000 : (sequence * 7919) % 30_000;
}
