import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { TuiStatus } from "../controller.js";
import { formatCost, formatTokens } from "../terminal-text.js";

/** Model, mode, context use and cost on one line that never wraps; the user's own status line under it. */
export function StatusLine({ status, width, notice }: { status: TuiStatus; width: number; notice?: string }): ReactNode {
  return (
    <Box flexDirection="column" width={width}>
      <CairnStatus status={status} width={width} {...(notice === undefined ? {} : { notice })} />
      {status.userLine === undefined || status.userLine === "" ? null : (
        <Box width={width}>
          <Text wrap="truncate-end">{status.userLine}</Text>
        </Box>
      )}
    </Box>
  );
}

function CairnStatus({ status, width, notice }: { status: TuiStatus; width: number; notice?: string }): ReactNode {
  const percent = status.contextWindow > 0 ? Math.round((status.tokensUsed / status.contextWindow) * 100) : 0;
  const tokens = `${formatTokens(status.tokensUsed)}/${formatTokens(status.contextWindow)} (${percent}%)`;
  const modeColour = status.mode === "plan" ? "magenta" : "green";
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        <Text color={modeColour} bold>
          {status.mode === "plan" ? "PLAN" : status.autoMode === true ? "ACT · AUTO" : "ACT"}
        </Text>
        <Text color="gray">{" · "}</Text>
        <Text>{status.model}</Text>
        <Text color="gray">{" · "}</Text>
        <Text {...(percent >= 80 ? { color: "red" } : {})}>{tokens}</Text>
        <Text color="gray">{" · "}</Text>
        {status.tokensIn === undefined || status.tokensOut === undefined ? null : <Text color="gray">{`↑${formatTokens(status.tokensIn)} ↓${formatTokens(status.tokensOut)} `}</Text>}
        <Text>{formatCost(status.cost)}</Text>
        {status.budgetLeft === undefined ? null : <Text color="yellow">{` · ${status.budgetLeft}`}</Text>}
        <Text color="gray">{notice === undefined ? `  ${status.keys ?? "Tab mode · Esc stop · ^C^C quit"}` : "  "}</Text>
        {notice === undefined ? null : <Text color="yellow">{notice}</Text>}
      </Text>
    </Box>
  );
}
