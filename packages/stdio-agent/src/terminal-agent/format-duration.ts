/** A duration as people read it: `500 ms`, `90 s`, `5 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 120_000 || ms % 60_000 !== 0) return `${Math.round(ms / 1_000)} s`;
  return `${ms / 60_000} min`;
}
