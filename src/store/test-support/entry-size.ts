/** Sizes vary, with a 600 KB entry now and then (150 pages: a kill can land in the middle of its write). */
export function entrySize(sequence: number): number {
  return sequence % 5 === 0 ? 600_000 : (sequence * 7919) % 30_000;
}
