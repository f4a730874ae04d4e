/** The session's modes (plan / act) and its config options (mode and model selectors). */
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { modelsForProvider } from "../llm/models.js";
import type { ProviderName } from "../config/types.js";
import type { Mode } from "../task/contracts/tool-executor.js";

export const modeDescriptions: Record<Mode, { name: string; description: string }> = {
  plan: { name: "Plan", description: "Explore and plan with read-only tools; nothing is changed." },
  act: { name: "Act", description: "Carry out the task: edit files and run commands (with your approval)." },
};

export function isMode(value: string): value is Mode {
  return value === "plan" || value === "act";
}

export function modeState(mode: Mode): SessionModeState {
  return {
    currentModeId: mode,
    availableModes: (["act", "plan"] as const).map((id) => ({ id, ...modeDescriptions[id] })),
  };
}

export function modelChoices(provider: ProviderName, current: string): string[] {
  const family = modelsForProvider(provider);
  return [current, ...family.filter((id) => id !== current)];
}

export function configOptions(options: { mode: Mode; model: string; provider: ProviderName }): SessionConfigOption[] {
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: options.mode,
      options: (["act", "plan"] as const).map((id) => ({ value: id, ...modeDescriptions[id] })),
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
