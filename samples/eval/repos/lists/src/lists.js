/** Array helpers. */

export function chunk(items, size) {
  const chunks = [];
  for (let index = 0; index + size <= items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

export function unique(items) {
  return [...items].sort().filter((item, index, sorted) => index === 0 || sorted[index - 1] !== item);
}
