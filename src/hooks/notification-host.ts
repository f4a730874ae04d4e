import type { Host } from "../task/contracts/host.js";
import type { HookRunner } from "./hook-runner.js";

/**
 * Notification: cairn needs the user (an ask is waiting). The hooks run beside
 * the ask, never in its way: a slow notifier must not delay the question.
 */
export function withNotificationHooks(host: Host, runner: HookRunner): Host {
  if (!runner.has("Notification")) return host;
  return {
    onMessage: (message) => host.onMessage(message),
    answerAsk: (message, signal) => {
      void runner.run("Notification", { message: message.text, notification_type: message.ask }, { subjects: [message.ask], signal });
      return host.answerAsk(message, signal);
    },
  };
}
