import { test } from "node:test";
import assert from "node:assert/strict";
import { reverseWords } from "../src/strings.js";

test("reverseWords reverses the order of words", () => {
  assert.equal(reverseWords("one two three"), "three two one");
});
