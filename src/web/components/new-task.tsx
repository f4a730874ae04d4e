/** Starts a task in a chosen folder (`POST /api/tasks`); the folders of earlier tasks are offered. */
import { useState } from "preact/hooks";
import type { PermissionMode } from "../api-types.js";
import { api } from "../api.js";
import { useTaskRows } from "./task-list.js";

export function NewTask({ navigate }: { navigate: (hash: string) => void }) {
  const { rows } = useTaskRows(60_000);
  const folders = [...new Set((rows ?? []).map((row) => row.workspace))];
  const [cwd, setCwd] = useState(() => localStorage.getItem("cairn.cwd") ?? "");
  const [prompt, setPrompt] = useState("");
  const [mode, setMode] = useState<PermissionMode>("default");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const folder = cwd !== "" ? cwd : (folders[0] ?? "");

  const start = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const { taskId } = await api.start({ prompt, cwd: folder, permissionMode: mode });
      localStorage.setItem("cairn.cwd", folder);
      navigate(`#/task/${encodeURIComponent(taskId)}`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  };

  return (
    <form
      class="new-task panel"
      onSubmit={(event) => {
        event.preventDefault();
        if (prompt.trim() !== "" && folder !== "") void start();
      }}
    >
      <h1>New task</h1>
      <label>
        Folder
        <input name="cwd" list="folders" placeholder="/path/to/your/project" value={folder} onInput={(event) => setCwd(event.currentTarget.value)} required />
        <datalist id="folders">
          {folders.map((path) => (
            <option key={path} value={path} />
          ))}
        </datalist>
      </label>
      <label>
        Task
        <textarea name="prompt" rows={5} placeholder="What should cairn do?" value={prompt} onInput={(event) => setPrompt(event.currentTarget.value)} required />
      </label>
      <label>
        Approvals
        <select name="mode" value={mode} onChange={(event) => setMode(event.currentTarget.value as PermissionMode)}>
          <option value="default">Ask before edits and commands</option>
          <option value="acceptEdits">Accept edits, ask before commands</option>
          <option value="plan">Plan first</option>
        </select>
      </label>
      {error !== undefined && <div class="error">{error}</div>}
      <button class="primary" type="submit" disabled={busy || prompt.trim() === "" || folder === ""}>
        Start
      </button>
    </form>
  );
}
