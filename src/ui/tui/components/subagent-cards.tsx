import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { SubagentCard } from "../subagent-board.js";
import { cleanLine } from "../terminal-text.js";
import { useNow } from "./use-clock.js";

function formatTokens(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}

/** One line per running subagent (issue #17): its id, what it does now, its tokens and elapsed time. */
export function SubagentCards({ cards, width, expanded }: { cards: readonly SubagentCard[]; width: number; expanded: boolean }): ReactNode {
  const now = useNow(1000, cards.length > 0);
  if (cards.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {cards.map((card) => {
        const seconds = Math.max(0, Math.floor((now - card.since) / 1000));
        const elapsed = seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
        return (
          <Box key={card.subagentId} flexDirection="column">
            <Text wrap="truncate-end">
              <Text color="magenta">{expanded ? "▼ " : "◆ "}</Text>
              <Text bold>{card.subagentId}</Text>
              {` · ${card.current === undefined ? "thinking" : cleanLine(card.current.split("\n")[0] ?? "")} · ${formatTokens(card.tokens)} tokens · ${elapsed}`}
            </Text>
            {expanded
              ? card.recent.map((entry) => (
                  <Text key={entry.id} color="gray" wrap="truncate-end">
                    {`    ${cleanLine(entry.text)}`}
                  </Text>
                ))
              : null}
          </Box>
        );
      })}
    </Box>
  );
}
