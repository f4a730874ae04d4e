import { Box, Text, useStdout } from "ink";
import { useEffect, useReducer, useSyncExternalStore } from "react";
import type { ReactNode } from "react";
import { AskPrompt } from "./components/ask-prompt.js";
import { CommandTimer, WaitingSpinner } from "./components/activity.js";
import { InputLine, QueuedMessages } from "./components/input-line.js";
import { LiveMessage } from "./components/message-view.js";
import { usePrintedHistory } from "./printed-history.js";
import type { PrintQueue } from "./print-queue.js";
import type { LiveLimits } from "./components/message-view.js";
import { StatusLine } from "./components/status-line.js";
import { SubagentCards } from "./components/subagent-cards.js";
import { ChecklistPanel } from "./components/checklist-panel.js";
import { ProcessPanel } from "./components/process-panel.js";
import { useNow } from "./components/use-clock.js";
import type { InputHistoryStore, TuiController } from "./controller.js";
import { cleanLine, lastLines } from "./terminal-text.js";
import type { TuiHost } from "./tui-host.js";
import { useKeys } from "./use-keys.js";
import { askChoices } from "./ask-choices.js";
import { replyIsOpen } from "./ask-keys.js";
import { CommandMenu } from "./components/command-menu.js";
import { slashCommands } from "./slash-commands.js";
import type { SlashCommandRegistry } from "./slash-commands.js";
import { useRedrawOnResize } from "./use-resize-redraw.js";

export interface AppProps {
  controller: TuiController;
  host: TuiHost;
  /** Slash commands (default: the registry features register into). */
  commands?: SlashCommandRegistry;
  /** Earlier inputs for Up/Down. */
  history?: InputHistoryStore;
  /** Clear and print everything again when the width changes (a real terminal; see use-resize-redraw.ts). */
  redrawOnResize?: boolean;
  /** Where the printed history goes (default: Ink's write, above the live area); tests keep it apart from the frames. */
  writeHistory?: (text: string) => void;
  /** Markdown of the printed history formatted by a worker, written in order (print-queue.ts); default: in this thread. */
  printQueue?: PrintQueue;
}

function ReasoningPanel({ text, width, maxLines }: { text: string; width: number; maxLines: number }): ReactNode {
  const { lines, hidden } = lastLines(text, maxLines);
  return (
    <Box flexDirection="column" width={width} borderStyle="single" borderColor="gray" paddingX={1}>
      {hidden > 0 ? <Text dimColor>{`… ${hidden} earlier lines`}</Text> : null}
      {lines.map((line, index) => (
        <Text key={index} dimColor italic>
          {cleanLine(line) || " "}
        </Text>
      ))}
    </Box>
  );
}

function placeholder(busy: boolean, hasHistory: boolean, asking: "menu" | "reply" | "typed" | undefined): string {
  if (asking === "menu") return "Choose above, or type to tell cairn what to do instead";
  if (asking === "reply") return "Tell cairn what to do instead";
  if (asking === "typed") return "Type a reply, Enter sends";
  if (busy) return "cairn is working… type to queue a message · Esc stops";
  return hasHistory ? "Give feedback, or type a new task" : "What should cairn do?";
}

/** The whole terminal UI: printed history, the live tail, the prompt and the status line. */
export function App({ controller, host, commands = slashCommands, history, redrawOnResize = false, writeHistory, printQueue }: AppProps): ReactNode {
  const snapshot = useSyncExternalStore(host.subscribe, host.getSnapshot);
  const { stdout, write } = useStdout();
  const width = Math.max(20, stdout.columns > 0 ? stdout.columns : 80);
  const rows = Math.max(12, stdout.rows > 0 ? stdout.rows : 30);
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  // Widths are computed here (markdown is wrapped in advance), so a resize needs a React render.
  useEffect(() => {
    stdout.on("resize", refresh);
    return () => {
      stdout.off("resize", refresh);
    };
  }, [stdout]);
  const printedGeneration = useRedrawOnResize(stdout, redrawOnResize);
  usePrintedHistory(snapshot.staticItems, width, printedGeneration, writeHistory ?? write, printQueue);
  // The status (tokens, cost, busy) belongs to the controller: look again every second.
  useNow(1000);
  const ask = snapshot.pendingAsk;
  const keys = useKeys({ controller, host, refresh, commands, history });
  const offered = commands.menuFor(keys.value);

  const status = controller.status();
  const limits: LiveLimits = {
    markdownLines: Math.max(3, rows - 14),
    diffLines: Math.max(5, rows - 14),
    outputLines: 8,
  };
  const notice = status.notice ?? (keys.exitArmed ? "Press Ctrl+C again to quit" : undefined);
  const hasHistory = snapshot.staticItems.length > 0 || snapshot.live.length > 0;
  const replyOpen = ask !== undefined && replyIsOpen(ask, keys.replyFor === ask.id, keys.value);
  const asking = ask === undefined ? undefined : replyOpen ? "reply" : askChoices(ask) === undefined || ask.ask === "followup" ? "typed" : "menu";
  return (
    <Box flexDirection="column" width={width}>
      {snapshot.live.map((item) => (
        <LiveMessage key={item.message.id} item={item} width={width} limits={limits} />
      ))}
      {keys.showReasoning && snapshot.lastReasoning !== undefined ? <ReasoningPanel text={snapshot.lastReasoning} width={width} maxLines={Math.max(3, rows - 12)} /> : null}
      {snapshot.activity.kind === "waiting" ? <WaitingSpinner since={snapshot.activity.since} /> : null}
      {snapshot.activity.kind === "command" && status.busy ? <CommandTimer since={snapshot.activity.since} command={snapshot.activity.command} /> : null}
      <SubagentCards cards={snapshot.subagents ?? []} width={width} expanded={keys.showReasoning} />
      <ChecklistPanel message={host.latestChecklist} width={width} />
      <ProcessPanel processes={controller.processes?.() ?? []} width={width} />
      {ask === undefined ? null : <AskPrompt ask={ask} selected={keys.selected} replyOpen={replyOpen} width={width} />}
      <QueuedMessages messages={controller.queued?.() ?? []} width={width} withdrawable={controller.withdrawQueued !== undefined} />
      <InputLine value={keys.value} cursor={keys.cursor} placeholder={placeholder(status.busy, hasHistory, asking)} width={width} />
      <CommandMenu commands={offered} selected={Math.min(keys.menuIndex, Math.max(0, offered.length - 1))} width={width} />
      <StatusLine status={status} width={width} {...(notice === undefined ? {} : { notice })} />
    </Box>
  );
}
