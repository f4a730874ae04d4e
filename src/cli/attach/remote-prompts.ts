/**
 * The prompts of the MCP servers of a task in `cairn serve` (`GET /api/tasks/:id/prompts`), as slash commands of
 * the attached terminal's menu: `/mcp__server__prompt args` is sent to the task as typed, and the server expands it
 * (as the local UI's menu does, src/cli/mcp-completions.ts). Read again when the task's state changes and after each
 * request (a server may connect late, or add a prompt), at most once a second.
 */
import type { SlashCommand } from "../../ui/tui/slash-commands.js";
import type { ServerAddress } from "./server-address.js";
import { requestJson } from "./server-requests.js";

export interface RemotePrompt {
  /** `/mcp__server__prompt` */
  command: string;
  description: string;
  usage: string;
}

function promptsOf(answer: unknown): RemotePrompt[] {
  const listed = (answer as { prompts?: unknown } | undefined)?.prompts;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((value: unknown) => {
    const prompt = value as Partial<Record<keyof RemotePrompt, unknown>>;
    if (typeof prompt.command !== "string" || !prompt.command.startsWith("/mcp__")) return [];
    return [{ command: prompt.command, description: typeof prompt.description === "string" ? prompt.description : "", usage: typeof prompt.usage === "string" ? prompt.usage : "" }];
  });
}

/** The prompts as menu commands; `send` is what Enter on one does with the typed line. */
export function promptCommands(prompts: readonly RemotePrompt[]): SlashCommand[] {
  return prompts.map((prompt) => {
    const name = prompt.command.slice(1);
    return {
      name,
      description: prompt.description,
      ...(prompt.usage === "" ? {} : { usage: prompt.usage }),
      run: ({ args, send }) => send(args === "" ? prompt.command : `${prompt.command} ${args}`),
    };
  });
}

export class RemotePrompts {
  #prompts: RemotePrompt[] = [];
  #last = 0;
  #reading = false;

  constructor(
    private readonly address: () => ServerAddress,
    private readonly taskId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The menu's source. */
  readonly commands = (): SlashCommand[] => promptCommands(this.#prompts);

  /** Reads the list again unless it was read less than a second ago; a failure keeps the last list. */
  refresh(): void {
    if (this.#reading || this.now() - this.#last < 1000) return;
    this.#reading = true;
    this.#last = this.now();
    requestJson(this.address(), "GET", `/api/tasks/${encodeURIComponent(this.taskId)}/prompts`)
      .then((answer) => {
        this.#prompts = promptsOf(answer);
      })
      .catch(() => undefined)
      .finally(() => {
        this.#reading = false;
      });
  }
}
