import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import type { ResolvedSettings } from "../config/index.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { DataFolderError } from "../store/data-folder.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";

describe("a task the terminal UI cannot start", () => {
  it("names what the user typed with the reason, and how to get it back", async () => {
    const host = new TuiHost();
    const seen: UiMessage[] = [];
    const show = host.onMessage.bind(host);
    host.onMessage = (message) => {
      seen.push(message);
      show(message);
    };
    const controller = new InteractiveController({
      settings: { plan: false, model: "m", cwd: tmpdir() } as ResolvedSettings,
      host,
      exitWhenDone: false,
      onExit: () => undefined,
      createSession: async () => {
        throw new DataFolderError("/home/me/.cairn", new Error("EACCES: permission denied, mkdir"));
      },
    });
    controller.submit("write the weekly report");
    await controller.close();
    const error = seen.find((message) => message.type === "say" && message.say === "error");
    expect(error?.text).toContain("the data folder /home/me/.cairn cannot be created or written");
    expect(error?.text).toContain('Your task was not started: "write the weekly report". Press ↑ to get it back');
    expect(controller.result?.status).toBe("failed");
  });
});
