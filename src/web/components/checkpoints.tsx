/** The task's checkpoints as a timeline, newest first: each one's diff to now, and restoring it. */
import { useEffect, useState } from "preact/hooks";
import type { Checkpoint, RestoreMode } from "../api-types.js";
import { api } from "../api.js";
import { formatAge } from "../format.js";
import { Diff } from "./tool-card.js";

const modes: Array<{ mode: RestoreMode; label: string }> = [
  { mode: "files", label: "Files" },
  { mode: "task", label: "Conversation" },
  { mode: "both", label: "Both" },
];

/** `refresh` changes when a checkpoint may have been made (a `checkpoint_created` message came). */
export function Checkpoints({ taskId, refresh }: { taskId: string; refresh: number }) {
  const [checkpoints, setCheckpoints] = useState<Checkpoint[] | undefined>(undefined);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [diff, setDiff] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);

  useEffect(() => {
    let stale = false;
    api
      .checkpoints(taskId)
      .then((loaded) => !stale && setCheckpoints(loaded.checkpoints))
      .catch((error: unknown) => !stale && setNote(error instanceof Error ? error.message : String(error)));
    return () => {
      stale = true;
    };
  }, [taskId, refresh]);

  const showDiff = async (hash: string): Promise<void> => {
    if (open === hash) return setOpen(undefined);
    setOpen(hash);
    setDiff(undefined);
    try {
      setDiff(await api.diff(taskId, hash));
    } catch (error) {
      setDiff(error instanceof Error ? error.message : String(error));
    }
  };

  const restore = async (hash: string, mode: RestoreMode): Promise<void> => {
    if (!window.confirm(`Restore ${mode === "task" ? "the conversation" : mode === "files" ? "the files" : "the files and the conversation"} to checkpoint ${hash.slice(0, 8)}? A running task is stopped first.`)) return;
    try {
      await api.restore(taskId, hash, mode);
      setNote(`Restored ${mode} to ${hash.slice(0, 8)}.`);
      setOpen(undefined);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section class="panel checkpoints" aria-label="Checkpoints">
      <h2>Checkpoints</h2>
      {note !== undefined && <div class="note">{note}</div>}
      {checkpoints === undefined ? (
        <div class="muted">…</div>
      ) : checkpoints.length === 0 ? (
        <div class="muted">None yet.</div>
      ) : (
        <ol class="timeline">
          {checkpoints.map((checkpoint) => (
            <li key={checkpoint.hash} data-hash={checkpoint.hash}>
              <div class="cp-line">
                <code>{checkpoint.hash.slice(0, 8)}</code>
                <span class="muted">{checkpoint.reason ?? ""}</span>
                <span class="muted">{formatAge(checkpoint.createdAt, Date.now())}</span>
              </div>
              <div class="cp-actions">
                <button onClick={() => void showDiff(checkpoint.hash)}>{open === checkpoint.hash ? "Hide diff" : "Diff to now"}</button>
                {modes.map(({ mode, label }) => (
                  <button key={mode} onClick={() => void restore(checkpoint.hash, mode)} title={`Restore ${mode}`}>
                    ↺ {label}
                  </button>
                ))}
              </div>
              {open === checkpoint.hash && (diff === undefined ? <div class="muted">…</div> : diff === "" ? <div class="muted">No changes since.</div> : <Diff diff={diff} />)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
