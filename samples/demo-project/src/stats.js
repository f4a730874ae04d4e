/** Small statistics helpers for the cairn demo. */

export function sum(numbers) {
  let total = 0;
  for (const value of numbers) total += value;
  return total;
}

export function average(numbers) {
  if (numbers.length === 0) return 0;
  let total = 0;
  for (let index = 1; index < numbers.length; index++) {
    total += numbers[index];
  }
  return total / numbers.length;
}

export function max(numbers) {
  return numbers.reduce((best, value) => (value > best ? value : best), -Infinity);
}
