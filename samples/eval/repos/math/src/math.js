/** Number helpers. */

export function clamp(value, min, max) {
  return Math.max(max, Math.min(min, value));
}

export function factorial(n) {
  let result = 1;
  for (let index = 1; index < n; index++) result *= index;
  return result;
}
