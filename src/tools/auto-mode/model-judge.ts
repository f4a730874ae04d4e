/**
 * Auto mode's judge on a model: one request per action, with its own budget
 * (tokens and cost for the run) and a time limit. It fails closed: an error, a
 * timeout, a malformed answer or a spent budget is a failed judgement, which
 * the policy turns into an ask (a refusal when nobody can answer).
 */
import { knownModelIds, isKnownModel } from "../../llm/models.js";
import type { Message, Provider } from "../../llm/types.js";
import type { ActionJudge, JudgedAction, Judgement, JudgeTotals } from "./judge-contract.js";
import { judgeRequest, readJudgeAnswer } from "./judge-prompt.js";

export interface ModelJudgeOptions {
  /** The judge's provider, already wrapped like every other (redaction, rate limits). */
  provider: Provider;
  /** The task's text and its conversation so far. */
  conversation: () => { task: string; history: readonly Message[] };
  headless: boolean;
  maxTokens: number;
  maxCost?: number | undefined;
  timeoutMs: number;
}

const emptyTotals: JudgeTotals = { judged: 0, allowed: 0, asked: 0, denied: 0, failed: 0, tokensIn: 0, tokensOut: 0, cost: 0 };

export class ModelJudge implements ActionJudge {
  readonly headless: boolean;
  active = true;
  private spent: JudgeTotals = { ...emptyTotals };

  constructor(private readonly options: ModelJudgeOptions) {
    this.headless = options.headless;
  }

  totals(): JudgeTotals {
    return { ...this.spent };
  }

  async judge(action: JudgedAction, signal: AbortSignal): Promise<Judgement> {
    const started = Date.now();
    const usage = { tokensIn: 0, tokensOut: 0, cost: 0 };
    const finish = (found: { decision: Judgement["decision"]; reason: string; failed?: true }): Judgement => {
      const judgement: Judgement = { ...found, model: this.options.provider.model.id, ...usage, durationMs: Date.now() - started };
      this.count(judgement);
      return judgement;
    };
    const over = this.overBudget();
    if (over !== undefined) return finish({ decision: "ask", reason: `auto mode's judge is over its budget (${over})`, failed: true });
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const request = judgeRequest({ ...this.options.conversation(), action });
    let text = "";
    try {
      for await (const chunk of this.options.provider.createMessage({ ...request, signal: AbortSignal.any([signal, timeout]) })) {
        if (chunk.type === "text") text += chunk.text;
        if (chunk.type === "usage") {
          usage.tokensIn += chunk.inputTokens + (chunk.cacheReadTokens ?? 0) + (chunk.cacheWriteTokens ?? 0);
          usage.tokensOut += chunk.outputTokens;
          usage.cost += chunk.cost ?? 0;
        }
      }
    } catch (error) {
      const why = timeout.aborted ? `it did not answer within ${(this.options.timeoutMs / 1000).toFixed(1)} s` : error instanceof Error ? error.message : String(error);
      return finish({ decision: "ask", reason: `auto mode's judge failed: ${why}`, failed: true });
    }
    const answer = readJudgeAnswer(text);
    if (answer === undefined) return finish({ decision: "ask", reason: `auto mode's judge gave no valid decision (${describeAnswer(text)})`, failed: true });
    return finish(answer);
  }

  private overBudget(): string | undefined {
    const { maxTokens, maxCost } = this.options;
    const tokens = this.spent.tokensIn + this.spent.tokensOut;
    if (tokens >= maxTokens) return `${tokens.toLocaleString("en-US")} of ${maxTokens.toLocaleString("en-US")} tokens spent`;
    if (maxCost !== undefined && this.spent.cost >= maxCost) return `$${this.spent.cost.toFixed(4)} of $${maxCost.toFixed(4)} spent`;
    return undefined;
  }

  private count(judgement: Judgement): void {
    const spent = this.spent;
    spent.judged += 1;
    spent.tokensIn += judgement.tokensIn;
    spent.tokensOut += judgement.tokensOut;
    spent.cost += judgement.cost;
    if (judgement.failed === true) spent.failed += 1;
    else if (judgement.decision === "allow") spent.allowed += 1;
    else if (judgement.decision === "deny") spent.denied += 1;
    else spent.asked += 1;
  }
}

function describeAnswer(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return "an empty answer";
  return `it answered "${line.length > 80 ? `${line.slice(0, 80)}…` : line}"`;
}

/** A small, cheap model of each provider family, for the judge when none is configured. */
const smallModels: Record<string, string> = { anthropic: "claude-haiku-5-5", openai: "gpt-5-mini", "openai-responses": "gpt-5-mini", gemini: "gemini-2.5-flash-lite" };

/**
 * The judge's model: the configured one, else the provider's small model from
 * the catalogue when the task's model is one the catalogue knows (a hosted
 * API), else the task's own model (a local server serves only its own).
 */
export function judgeModelFor(options: { provider: string; taskModel: string; configured: string | undefined }): string {
  if (options.configured !== undefined) return options.configured;
  const small = smallModels[options.provider];
  if (small === undefined || !isKnownModel(options.taskModel) || !knownModelIds().includes(small)) return options.taskModel;
  return small;
}
