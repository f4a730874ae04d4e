/** Durations in milliseconds. */

export function formatDuration(ms) {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 100);
  return minutes > 0 ? `${minutes}m ${seconds % 60}s` : `${seconds}s`;
}
