import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { InputLine } from "../ui/tui/components/input-line.js";
import { earlyPlaceholder, inputBoxLines, mayPaintEarly } from "./early-frame-text.js";

const plain = (text: string): string => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
const terminal = { args: [] as string[], env: { TERM: "xterm-256color" } as NodeJS.ProcessEnv, stdinIsTTY: true, stdoutIsTTY: true, columns: 100, platform: "linux" };

describe("the launcher's early input box", () => {
  it("has the characters the UI's input line draws at the same width", () => {
    for (const width of [28, 64, 100]) {
      const ink = render(<InputLine value="" placeholder={earlyPlaceholder} width={width} />);
      expect(inputBoxLines(width).map(plain)).toEqual(ink.lastFrame()!.split("\n"));
      ink.unmount();
    }
  });

  it("is drawn only on a colour terminal at both ends, wide enough, for the prompt, unless switched off", () => {
    expect(mayPaintEarly(terminal)).toBe(true);
    expect(mayPaintEarly({ ...terminal, env: { TERM: "screen", CAIRN_NO_EARLY_PAINT: "0" } })).toBe(true);
    expect(mayPaintEarly({ ...terminal, env: { TERM: "xterm", CAIRN_NO_EARLY_PAINT: "1" } })).toBe(false);
    expect(mayPaintEarly({ ...terminal, stdinIsTTY: false })).toBe(false);
    expect(mayPaintEarly({ ...terminal, stdoutIsTTY: false })).toBe(false);
    expect(mayPaintEarly({ ...terminal, columns: 27 })).toBe(false);
    for (const env of [{ TERM: "dumb" }, {}, { TERM: "xterm", CI: "true" }, { TERM: "xterm", FORCE_COLOR: "0" }]) expect(mayPaintEarly({ ...terminal, env })).toBe(false);
    for (const flag of ["-p", "--print", "-c", "--continue", "--resume", "--resume=abc", "--json", "--no-color"]) expect(mayPaintEarly({ ...terminal, args: [flag] })).toBe(false);
    expect(mayPaintEarly({ ...terminal, args: ["--provider", "mock", "fix the tests"] })).toBe(true);
  });
});
