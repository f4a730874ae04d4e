import type { ProviderError } from "../llm/errors.js";
import { retryDelay, sleep } from "../llm/retry.js";
import { unrecoverableReason } from "../llm/unrecoverable.js";
import type { RetrySchedule } from "../llm/retry.js";
import type { ContentBlock } from "../llm/types.js";
import { TaskAbortedError, TaskFailedError } from "./errors.js";
import type { SayOptions } from "./message-state.js";
import type { AskMeta, RetryMeta } from "./contracts/message-meta.js";
import type { AskResponse, AskType, SayType } from "./contracts/messages.js";
import type { MistakeTracker } from "./mistakes.js";
import * as responses from "./responses.js";

/**
 * What happens when something goes wrong, decided in one place: retry on the
 * schedule, ask the user (`api_req_failed`, `mistake_limit_reached`), or, in
 * yes-mode where nobody can be asked, fail the task with a clear reason.
 * The Task carries out the decision (SPEC T9, T11, T13).
 */
export class FailureDecisions {
  private streamFailures = 0;

  constructor(
    private readonly options: {
      yes: boolean;
      /** Named when the server cannot be reached. */
      baseUrl?: string;
      schedule: RetrySchedule;
      mistakes: MistakeTracker;
      signal: AbortSignal;
      ask: <T extends AskType>(type: T, text: string, meta?: AskMeta<T>) => Promise<AskResponse>;
      say: (type: SayType, text: string, options?: SayOptions) => string;
    },
  ) {}

  /** SPEC T11: automatic retries are spent (or not allowed): ask, or fail in yes-mode. */
  async afterRequestFailure(error: ProviderError, onGiveUp: () => void): Promise<"retry"> {
    const giveUp = (): never => {
      onGiveUp();
      throw new TaskFailedError(`The model provider failed: ${error.message}`);
    };
    // Issue #12: what a retry cannot fix is said once, with what to change, and never offered a retry.
    const unrecoverable = unrecoverableReason(error, this.options.baseUrl);
    if (unrecoverable !== undefined) {
      onGiveUp();
      throw new TaskFailedError(unrecoverable);
    }
    if (this.options.yes) giveUp();
    const answer = await this.options.ask("api_req_failed", error.message, { kind: error.kind, status: error.status });
    if (answer.response === "no") giveUp();
    this.options.say("api_req_retried", "");
    return "retry";
  }

  /** A stream that failed after its first chunk: wait on the same schedule, then ask. */
  async afterStreamFailure(error: ProviderError): Promise<void> {
    const delayMs = retryDelay(this.streamFailures, error, this.options.schedule);
    if (delayMs === undefined) {
      const failed = new TaskFailedError(`The model provider failed mid-answer: ${error.message}`);
      if (this.options.yes) throw failed;
      const answer = await this.options.ask("api_req_failed", error.message, { kind: error.kind, status: error.status });
      if (answer.response === "no") throw failed;
      this.streamFailures = 0;
      return;
    }
    this.streamFailures += 1;
    const meta: RetryMeta = { attempt: this.streamFailures, delayMs, retryAt: Date.now() + delayMs, kind: error.kind };
    this.options.say("error_retry", `${error.message} Retrying in ${Math.ceil(delayMs / 1000)} s.`, { meta });
    try {
      await sleep(delayMs, this.options.signal);
    } catch {
      throw new TaskAbortedError();
    }
  }

  streamSucceeded(): void {
    this.streamFailures = 0;
  }

  /** SPEC T13: an empty answer counts as a mistake; the user is offered a retry. */
  async afterEmptyAnswer(): Promise<void> {
    this.options.mistakes.record("empty_response");
    if (this.options.yes) return;
    const answer = await this.options.ask("api_req_failed", "The model returned an empty answer. Retry?", { kind: "empty_response" });
    if (answer.response === "no") throw new TaskFailedError("The model returned an empty answer.");
  }

  /** SPEC T9: at the limit, yes-mode fails; otherwise the user's guidance goes to the model. */
  async atMistakeLimit(): Promise<ContentBlock> {
    const { mistakes } = this.options;
    const limit = mistakes.limit;
    if (this.options.yes) throw new TaskFailedError(`The model made ${limit} mistakes in a row; stopping (limit --max-mistakes ${limit}).`);
    const answer = await this.options.ask("mistake_limit_reached", `The model made ${limit} mistakes in a row. Give it guidance, or stop the task.`);
    if (answer.response === "no") throw new TaskFailedError("Stopped by the user at the mistake limit.");
    mistakes.reset();
    mistakes.resetRepetition();
    return { type: "text", text: responses.tooManyMistakes(answer.text) };
  }
}
