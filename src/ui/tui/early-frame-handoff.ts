/**
 * The input box the launcher drew before the CLI bundle loaded (src/launch/early-frame.ts):
 * the UI takes it over as its own first frame. Found through a global symbol, as the launcher
 * and the bundle are separate scripts.
 */

const earlyFrameKey = Symbol.for("cairn.earlyFrame");

interface EarlyFrameHandle {
  takeOver(): string | undefined;
}

/**
 * Called just before the UI's first frame: stops the launcher's hold on the terminal (the keys
 * typed meanwhile are read again first) and returns what erases the early frame, to be written
 * in the same write as that first frame; undefined when nothing was drawn or it is already gone.
 */
export function takeOverEarlyFrame(): string | undefined {
  const handle = (globalThis as Record<symbol, unknown>)[earlyFrameKey] as EarlyFrameHandle | undefined;
  if (handle === undefined) return undefined;
  delete (globalThis as Record<symbol, unknown>)[earlyFrameKey];
  return handle.takeOver();
}
