// pnpm hooks of the workspace.

/** `exports` with every `dsh-source` condition taken out. */
function withoutSourceCondition(exports) {
  if (exports === null || typeof exports !== 'object') return exports;
  if (Array.isArray(exports)) return exports.map(withoutSourceCondition);
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== 'dsh-source')
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

export const hooks = {
  // The workspace resolves its packages to their sources through the "dsh-source" condition;
  // a tarball has no sources, so the condition stays out of the packed package.json.
  beforePacking(manifest) {
    if (manifest.exports !== undefined) manifest.exports = withoutSourceCondition(manifest.exports);
    return manifest;
  },
};
