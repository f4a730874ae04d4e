/**
 * Edit distance with transpositions (optimal string alignment): the fewest
 * one-character insertions, deletions, substitutions and swaps of two
 * neighbours from `left` to `right`, so `histroy` is one edit from `history`.
 */
export function editDistance(left: string, right: string): number {
  let before = new Array<number>(right.length + 1).fill(0);
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1]) best = Math.min(best, before[column - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[right.length]!;
}
