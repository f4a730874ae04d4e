/**
 * The SDK's `hooks` option (the Claude Agent SDK's shape) as hook definitions
 * for the session (`SessionOptions.hooks`): each callback becomes a user hook
 * in Claude Code's dialect, so it sees Claude Code's tool names and shapes and
 * needs no trust (it is the embedding program's own).
 */
import type { HookCallback, HookCallbackEventName, HookCallbackMatcher, HookCallbacks } from "./callback-types.js";
import { acceptedEventNames, eventsNamed } from "./events.js";
import type { HookDefinition } from "./hook-definition.js";
import { defaultHookTimeoutMs, fingerprintOf } from "./hook-definition.js";

export type {
  HookCallback,
  HookCallbackCommonInput,
  HookCallbackEventFields,
  HookCallbackEventName,
  HookCallbackInput,
  HookCallbackInputOf,
  HookCallbackMatcher,
  HookCallbackOutput,
  HookCallbackSpecificOutput,
  HookCallbacks,
} from "./callback-types.js";

/** What `origin.file` says of a callback hook (shown as the hook's source). */
export const callbackHookSource = "the program's hooks option (in-process callbacks)";

function problem(where: string, what: string): Error {
  return new Error(`hooks.${where}: ${what}`);
}

/** The name a callback is shown under: the function's own name, else the event and matcher. */
function callbackLabel(callback: HookCallback<never>, name: string, matcher: string | undefined): string {
  const own = callback.name.trim();
  return own !== "" && own !== "anonymous" ? `callback ${own}` : `callback ${name}${matcher === undefined ? "" : `[${matcher}]`}`;
}

function timeoutMsOf(where: string, timeout: unknown): number {
  if (timeout === undefined) return defaultHookTimeoutMs;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) throw problem(where, `"timeout" must be a positive number of seconds, not ${JSON.stringify(timeout)}`);
  return timeout * 1000;
}

/**
 * Hook definitions for callbacks given by event name, as the Claude Agent
 * SDK's `hooks` option: `{ PreToolUse: [{ matcher: "Bash", hooks: [async (input) => ({ ... })] }] }`.
 * Names are cairn's events or Claude Code's (`SessionStart` is TaskStart and
 * TaskResume, `Stop` TaskComplete, `SessionEnd` TaskCancel). An unknown name,
 * an entry without a list of functions or a bad timeout throws at once.
 */
export function callbackHooks(config: HookCallbacks): HookDefinition[] {
  const definitions: HookDefinition[] = [];
  // Each name's entries are checked at run time too: the program may be plain JavaScript.
  for (const [name, entries] of Object.entries(config) as Array<[string, unknown]>) {
    const events = eventsNamed(name);
    if (events.length === 0) throw problem(name, `unknown hook event (known: ${acceptedEventNames().join(", ")})`);
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw problem(name, "expected a list of { matcher?, hooks: [functions], timeout? }");
    (entries as unknown[]).forEach((entry, index) => {
      const where = `${name}[${index}]`;
      if (typeof entry !== "object" || entry === null) throw problem(where, "expected { matcher?, hooks: [functions], timeout? }");
      const { matcher, hooks, timeout } = entry as Partial<Record<keyof HookCallbackMatcher, unknown>>;
      if (matcher !== undefined && typeof matcher !== "string") throw problem(where, `"matcher" must be a string`);
      if (!Array.isArray(hooks) || !hooks.every((hook) => typeof hook === "function")) throw problem(where, `"hooks" must be a list of functions`);
      const timeoutMs = timeoutMsOf(where, timeout);
      const given = matcher === undefined || matcher === "" ? undefined : matcher;
      (hooks as Array<HookCallback<never>>).forEach((hook, position) => {
        const command = callbackLabel(hook, name, given);
        for (const event of events) {
          definitions.push({
            event,
            configuredAs: name,
            ...(given === undefined ? {} : { matcher: given }),
            command,
            // The runner calls it only for the events its name stands for, with that event's input.
            callback: hook as HookCallback,
            timeoutMs,
            scope: "user",
            origin: { kind: "callback", file: callbackHookSource },
            dialect: "claude-code",
            fingerprint: fingerprintOf(["callback", name, given ?? "", command, String(timeoutMs), `${index}.${position}`]),
          });
        }
      });
    });
  }
  return definitions;
}

/** Whether `name` may key the `hooks` option. */
export function isHookCallbackEventName(name: string): name is HookCallbackEventName {
  return eventsNamed(name).length > 0;
}
