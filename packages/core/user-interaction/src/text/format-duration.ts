/**
 * A duration as people read it, the one rule of every message and UI: `250 ms`, `1.5 s`, `20 s`,
 * `5 min`. Tenths only under ten seconds, where they matter (a retry in 1.5 s is not one in 2 s).
 */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms < 10_000 && Math.round(ms / 100) % 10 !== 0) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.round(ms / 1_000)} s`;
}
