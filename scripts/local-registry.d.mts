// Types of local-registry.mjs, for the TypeScript that imports it (bench/install-size.ts).

/** A packed package: ours (`pnpm pack`), or a third-party one from node_modules. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  readonly manifest: Record<string, unknown>;
  readonly tarball: string;
  readonly ours: boolean;
}

export function packWorkspace(root: string, folder: string): PackedPackage[];

export function serveRegistry(
  packed: readonly PackedPackage[],
): Promise<{ readonly url: string; close(): Promise<void> }>;

export function registryFlags(url: string, cache: string): string[];
