import { describe, expect, it } from "vitest";
import type { UiMessage } from "../task/contracts/messages.js";
import { SecretRedactor } from "./redaction.js";

const secret = "sk-live-0123456789abcdef";

/** Every piece of `value` of at least 8 characters. */
function piecesOf(value: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start + 8 <= value.length; start += 1) pieces.push(value.slice(start, start + 8));
  return pieces;
}

describe("SecretRedactor: a secret split across two updates is never shown in part", () => {
  it("a partial message's text holds back an end that could start a secret, and shows it once it is whole or cannot be one", () => {
    const redactor = new SecretRedactor([secret]);
    expect(redactor.partialText("the key is sk-live-0123")).toBe("the key is ");
    expect(redactor.partialText(`the key is ${secret}`)).toBe("the key is [REDACTED]");
    expect(redactor.partialText("the key is sk-live-X")).toBe("the key is sk-live-X");
    // Only a start of the secret is held back; the same characters elsewhere are shown.
    expect(redactor.partialText("sk-live- is how live keys start.")).toBe("sk-live- is how live keys start.");
    expect(redactor.text("the key is sk-live-0123")).toBe("the key is sk-live-0123");
  });

  it("redacting a partial UI message (as the host and the log see it) holds back; a final one is never cut", () => {
    const redactor = new SecretRedactor([secret, "canary-password-xyz789"]);
    const message: UiMessage = { type: "say", say: "text", id: "m1", ts: 1, text: "", partial: true };
    const shown: string[] = [];
    let streamed = "";
    for (const chunk of ["Use ", "sk-li", "ve-01234", "56789ab", "cdef and canary-pa", "ssword-xyz789 now."]) {
      streamed += chunk;
      shown.push(redactor.deep({ ...message, text: streamed }).text);
    }
    const final = redactor.deep({ ...message, text: streamed, partial: false });
    expect(final.text).toBe("Use [REDACTED] and [REDACTED] now.");
    for (const text of shown) {
      for (const piece of [...piecesOf(secret), ...piecesOf("canary-password-xyz789")]) expect(text).not.toContain(piece);
      // Every update extends the one before: a --json reader gets deltas, not replacements.
      expect(final.text.startsWith(text)).toBe(true);
    }
    expect(shown).toEqual(["Use ", "Use ", "Use ", "Use ", "Use [REDACTED] and ", "Use [REDACTED] and [REDACTED] now."]);
  });

  it("leaves other objects with text and partial (request content, tool blocks) whole", () => {
    const redactor = new SecretRedactor([secret]);
    const block = { type: "text", text: "ends with sk-li", partial: true };
    expect(redactor.deep(block).text).toBe("ends with sk-li");
  });
});

describe("SecretRedactor: secrets inside secrets, and the cheap disguises of a known value", () => {
  it("a secret that contains another is redacted whole, and so are two secrets that overlap", () => {
    const outer = "outer-prefix-INNER-SECRET-42-suffix";
    const inner = "INNER-SECRET-42";
    const redactor = new SecretRedactor([inner, outer]);
    expect(redactor.text(`a ${outer} b ${inner} c`)).toBe("a [REDACTED] b [REDACTED] c");
    // Neither contains the other, but they overlap in the text: nothing of either may show.
    const first = "alpha-bravo-charlie";
    const second = "charlie-delta-echo";
    const overlapping = new SecretRedactor([first, second]);
    expect(overlapping.text(`x alpha-bravo-charlie-delta-echo y`)).toBe("x [REDACTED] y");
    expect(overlapping.text(`x charlie-delta-echo-bravo y ${first}`)).toBe("x [REDACTED]-bravo y [REDACTED]");
  });

  it("redacts the secret reversed, in hexadecimal and in base64 (standard and URL-safe, at any byte alignment inside a longer encoding)", () => {
    const value = "s3cr3t~value?>>with/bytes";
    const redactor = new SecretRedactor([value]);
    const bytes = Buffer.from(value);
    const disguised = [[...value].reverse().join(""), bytes.toString("hex"), bytes.toString("hex").toUpperCase(), bytes.toString("base64"), bytes.toString("base64url")];
    for (const text of disguised) expect(redactor.text(`leak: ${text} end`), text).not.toContain(text.slice(2, -2));
    for (const prefix of ["", "a", "ab", "abc", "abcd"]) {
      for (const suffix of ["", "z", "yz", "xyz"]) {
        for (const encoding of ["base64", "base64url"] as const) {
          const encoded = Buffer.concat([Buffer.from(prefix), bytes, Buffer.from(suffix)]).toString(encoding);
          const redacted = redactor.text(encoded);
          expect(redacted, `${encoding} of ${prefix}|value|${suffix}`).toContain("[REDACTED]");
          // What is left shows at most the few characters shared with the text around the secret.
          expect(redacted.replace("[REDACTED]", "").length).toBeLessThanOrEqual(Math.ceil(((prefix.length + suffix.length) * 4) / 3) + 4);
        }
      }
    }
  });

  it("ordinary text is left alone", () => {
    const redactor = new SecretRedactor(["s3cr3t~value?>>with/bytes"]);
    const text = "npm test passed: 42 tests, 0 failures; see https://example.com/log?id=abc";
    expect(redactor.text(text)).toBe(text);
  });
});
