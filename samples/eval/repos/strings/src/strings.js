/** String helpers. */

export function capitalize(text) {
  if (text === "") return text;
  return text[0].toLowerCase() + text.slice(1);
}

export function reverseWords(text) {
  return text.split("").reverse().join("");
}
