import { describe, expect, it } from "vitest";
import { neutralizeControls, neutralizeDeep } from "./terminal-controls.js";

const escape = "\u001b";
/** Anything a terminal could take as an instruction: ESC, C1 controls, C0 controls but newline and tab. */
const anyControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("neutralizeControls: text from the model or a command printed on a terminal", () => {
  const cases: Array<[string, string, string]> = [
    ["OSC 52 clipboard write ended by BEL", `a${escape}]52;c;cm0gLXJmIH4=\u0007b`, "ab"],
    ["OSC 0 window title ended by ST", `a${escape}]0;pwned title${escape}\\b`, "ab"],
    ["OSC 8 hyperlink", `${escape}]8;;https://evil.example/${escape}\\click${escape}]8;;${escape}\\`, "click"],
    ["cursor movement and screen clear", `a${escape}[2J${escape}[H${escape}[10;20Hb${escape}[1A`, "ab"],
    ["private CSI (alternate screen)", `a${escape}[?1049hb`, "ab"],
    ["SGR colours are removed as well", `${escape}[1;31mred${escape}[0m ${escape}[38:2::1:2:3mtrue`, "red true"],
    ["DCS ended by ST", `a${escape}P+q544e${escape}\\b`, "ab"],
    ["APC and PM", `a${escape}_hidden${escape}\\b${escape}^private${escape}\\c`, "abc"],
    ["two-character escapes (save cursor, reset, charset)", `a${escape}7${escape}c${escape}(Bb`, "ab"],
    ["C1 CSI and C1 OSC", `a\u009b2Jb\u009d0;title\u009cc`, "abc"],
    ["other C1 and C0 controls", `a\u0085\u008d\u0007\u0008\u007fb`, "ab"],
    ["a lone carriage return starts a new line; CR LF is one line end", "done\rall good\r\nnext", "done\nall good\nnext"],
    ["newlines and tabs stay", "a\tb\nc", "a\tb\nc"],
    ["a final text cut inside a sequence shows the rest as text", `a${escape}]0;no end`, "a0;no end"],
    ["an escape at the very end is dropped", `a${escape}`, "a"],
  ];
  for (const [what, input, shown] of cases) {
    it(what, () => {
      const result = neutralizeControls(input);
      expect(result).toBe(shown);
      expect(result).not.toMatch(anyControl);
    });
  }

  it("keeps carriage returns when told (the TUI lays them out itself)", () => {
    expect(neutralizeControls(`10%\r20%${escape}[K`, { carriageReturns: "keep" })).toBe("10%\r20%");
  });

  it("a string sequence without its terminator within 4096 characters is not one: only its introducer goes", () => {
    const long = "x".repeat(5000);
    expect(neutralizeControls(`a${escape}]0;${long}`, { partial: true })).toBe(`a0;${long}`);
  });

  it("a growing text: what is printed for an update is a prefix of what is printed for the next (a sequence cut by the end waits)", () => {
    const full = `one ${escape}]52;c;aGVsbG8=\u0007two ${escape}[31mred${escape}[0m\r\nthree\rfour ${escape}P1$r${escape}\\five`;
    const whole = neutralizeControls(full);
    expect(whole).toBe("one two red\nthree\nfour five");
    let previous = "";
    for (let end = 0; end <= full.length; end += 1) {
      const shown = neutralizeControls(full.slice(0, end), { partial: end < full.length });
      expect(shown.startsWith(previous), `at ${end}: ${JSON.stringify(shown)} after ${JSON.stringify(previous)}`).toBe(true);
      expect(whole.startsWith(shown)).toBe(true);
      expect(shown).not.toMatch(anyControl);
      previous = shown;
    }
  });

  it("plain text comes back unchanged (the same string)", () => {
    const text = "nothing to see here: ünïcode, emoji 🎉, tabs\tand\nlines";
    expect(neutralizeControls(text)).toBe(text);
  });

  it("neutralizeDeep walks objects and arrays, keeping other values", () => {
    expect(neutralizeDeep({ path: `a${escape}[2Jb`, options: [`x${escape}]0;t\u0007`], count: 3, flag: true })).toEqual({ path: "ab", options: ["x"], count: 3, flag: true });
  });
});
