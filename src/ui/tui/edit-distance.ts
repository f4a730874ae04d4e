/** Levenshtein distance: the fewest one-character insertions, deletions and substitutions from `left` to `right`. */
export function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    let diagonal = previous[0]!;
    previous[0] = row;
    for (let column = 1; column <= right.length; column += 1) {
      const above = previous[column]!;
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      previous[column] = Math.min(above + 1, previous[column - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[right.length]!;
}
