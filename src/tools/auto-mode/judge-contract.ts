/**
 * Auto mode (issue 30): an action that the approval policy would ask about is
 * judged by a model instead: allow, ask, or deny, with a one-line reason. The
 * policy (src/tools/approval.ts) calls a judge only for what a person could
 * have approved; deny rules, ask rules, protected paths, paths outside the
 * workspace and escalation out of the sandbox never reach it.
 */
export type JudgeDecision = "allow" | "ask" | "deny";

/** The action as the user would have seen it in the ask. */
export interface JudgedAction {
  /** `execute_command`, `write_to_file`, an MCP or custom tool's name. */
  tool: string;
  /** The card's text: the command, the path, the MCP call. */
  text: string;
  /** An edit's diff, when there is one (trimmed by the judge). */
  diff?: string;
  /** Why the policy would have asked, when it said. */
  reason?: string;
}

/** What one judgement cost, and how it went; recorded on the tool card (and so in the task log). */
export interface Judgement {
  decision: JudgeDecision;
  reason: string;
  /** The judge failed (error, timeout, malformed answer, over its budget): the decision is the fail-closed one. */
  failed?: true;
  model: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  durationMs: number;
}

/** What the judges of one run spent (the summary's `auto mode` part). */
export interface JudgeTotals {
  judged: number;
  allowed: number;
  asked: number;
  denied: number;
  failed: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export interface ActionJudge {
  /** Whether it judges now (Tab in the terminal UI turns auto mode off and on); off, asks are asked. */
  active: boolean;
  /** Nobody can answer an ask (cairn run, the fleet): a failed judgement denies instead of asking. */
  readonly headless: boolean;
  /** Never throws: a failure is a `failed` judgement. */
  judge(action: JudgedAction, signal: AbortSignal): Promise<Judgement>;
  totals(): JudgeTotals;
}
