/**
 * Where auto mode meets the approval policy: an ask that a person could have
 * answered yes to goes to the judge, whose decision replaces it. Explicit asks
 * (ask rules, protected paths, what the parse cannot follow, escalation out
 * of the sandbox) and paths outside the workspace are never judged; refusals
 * never reach it. A failed judgement asks, or refuses where nobody can answer.
 */
import type { ToolCardMeta, ToolMeta } from "../../task/contracts/tool-meta.js";
import type { ApprovalVerdict } from "../approval.js";
import type { ActionJudge, Judgement } from "./judge-contract.js";
import { autoModeLine } from "../../task/contracts/auto-mode-line.js";

export interface JudgedVerdict {
  verdict: ApprovalVerdict;
  /** The line the card and the ask show. */
  line: string;
  card: NonNullable<ToolCardMeta["autoMode"]>;
}

export async function judgeAsk(options: { judge: ActionJudge; text: string; meta: ToolMeta; reason: string | undefined; signal: AbortSignal }): Promise<JudgedVerdict> {
  const { judge, meta } = options;
  const diff = "diff" in meta && typeof meta.diff === "string" ? meta.diff : undefined;
  const judgement = await judge.judge({ tool: meta.tool, text: options.text, ...(diff === undefined ? {} : { diff }), ...(options.reason === undefined ? {} : { reason: options.reason }) }, options.signal);
  const verdict = verdictOf(judgement, judge.headless);
  return { verdict, line: autoModeLine(judgement, verdict), card: judgement };
}

function verdictOf(judgement: Judgement, headless: boolean): ApprovalVerdict {
  if (judgement.failed === true) return headless ? "refuse" : "ask";
  return judgement.decision === "allow" ? "auto" : judgement.decision === "deny" ? "refuse" : "ask";
}
