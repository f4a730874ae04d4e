/** The session's modes (plan / act, and auto when auto mode is configured) and its config options (mode and model selectors). */
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { modelsForProvider } from "../llm/models.js";
import type { ProviderName } from "../config/types.js";
import type { Mode } from "../task/contracts/tool-executor.js";

/** A mode as the client sees it: the task's mode, or act with auto mode's judge deciding what would be asked (docs/security.md). */
export type AcpModeId = Mode | "auto";

export const modeDescriptions: Record<AcpModeId, { name: string; description: string }> = {
  plan: { name: "Plan", description: "Explore and plan with read-only tools; nothing is changed." },
  act: { name: "Act", description: "Carry out the task: edit files and run commands (with your approval)." },
  auto: { name: "Auto", description: "Act, with a model judging each action that would be asked (deny rules and protected paths still hold)." },
};

/** The modes this session offers: auto only where auto mode is configured. */
export function modeIds(autoAvailable: boolean): AcpModeId[] {
  return autoAvailable ? ["act", "auto", "plan"] : ["act", "plan"];
}

export function modeState(mode: AcpModeId, autoAvailable: boolean): SessionModeState {
  return {
    currentModeId: mode,
    availableModes: modeIds(autoAvailable).map((id) => ({ id, ...modeDescriptions[id] })),
  };
}

export function modelChoices(provider: ProviderName, current: string): string[] {
  const family = modelsForProvider(provider);
  return [current, ...family.filter((id) => id !== current)];
}

export function configOptions(options: { mode: AcpModeId; autoAvailable: boolean; model: string; provider: ProviderName }): SessionConfigOption[] {
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: options.mode,
      options: modeIds(options.autoAvailable).map((id) => ({ value: id, ...modeDescriptions[id] })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: options.model,
      options: modelChoices(options.provider, options.model).map((id) => ({ value: id, name: id })),
    },
  ];
}
