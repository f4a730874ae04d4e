/**
 * A terminal that changes width re-wraps what is on the screen, so the lines
 * Ink drew in place (the answer being written, the checklist, the input) no
 * longer take the rows Ink counted: erasing them for the next frame leaves torn
 * copies behind, in the screen and in the scrollback. Once the width has
 * settled, the screen and its scrollback are cleared and everything is printed
 * again at the new width (the printed history is re-rendered from the
 * transcript), so the scrollback holds one copy of each thing.
 */
import { useContext, useEffect, useState } from "react";
import { ClockContext } from "./components/use-clock.js";

/** Erase the screen, erase the scrollback, cursor home (what `clear` does). */
const clearScreenAndScrollback = "\u001b[2J\u001b[3J\u001b[H";

/** How long the width must stay the same before the redraw (a dragged window sends many resizes). */
const settleMs = 150;

/**
 * Returns a number that changes with each redraw: the printed history's key,
 * so it is rendered again in full. Off (always 0) where frames are not drawn
 * in place (tests' debug frames, a stream that is not a terminal).
 */
export function useRedrawOnResize(stdout: NodeJS.WriteStream, enabled: boolean): number {
  const clock = useContext(ClockContext);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    let drawnColumns = stdout.columns;
    let cancel: (() => void) | undefined;
    const onResize = (): void => {
      cancel?.();
      cancel = clock.setTimer(() => {
        cancel = undefined;
        // Only a new width re-wraps lines; a new height keeps Ink's count right.
        if (stdout.columns === drawnColumns) return;
        drawnColumns = stdout.columns;
        stdout.write(clearScreenAndScrollback);
        setGeneration((count) => count + 1);
      }, settleMs);
    };
    stdout.on("resize", onResize);
    return () => {
      cancel?.();
      stdout.off("resize", onResize);
    };
  }, [stdout, enabled, clock]);
  return generation;
}
