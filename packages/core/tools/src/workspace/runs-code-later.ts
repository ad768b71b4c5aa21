/**
 * What in a workspace runs code later, outside the sandbox and the policy, when a program the
 * person starts there reads it: git (hooks, `core.fsmonitor` and the like in `.git/config`),
 * an editor (`.vscode`'s tasks and settings, `.zed`'s language-server binaries, `.idea`'s run
 * configurations: sandbox-runtime keeps the same folders), a shell or direnv (start-up files),
 * and this agent (the project's `.mcp.json`, which starts servers once trusted as it is).
 */

/** Folders whose content is run as code: a path through one of them, at any depth. */
export const CODE_FOLDERS = Object.freeze(['.git', '.vscode', '.zed', '.idea']);

/** Files run as code when a shell, direnv or the agent starts in their folder. */
export const START_UP_FILES = Object.freeze([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.envrc',
  '.mcp.json',
]);

const FOLDERS: ReadonlySet<string> = new Set(CODE_FOLDERS);
const FILES: ReadonlySet<string> = new Set(START_UP_FILES);

/**
 * True when writing `relative` (a `/`-separated path inside the workspace, symlinks resolved)
 * changes what runs later: it lies in one of `CODE_FOLDERS` (or is one), at any depth (a nested
 * repository's hooks run when the person uses git there), or it is one of `START_UP_FILES` in any
 * folder (direnv reads `.envrc` wherever the person goes). Names compare without case, as a
 * case-insensitive file system (macOS) would open `.GIT/hooks` for `.git/hooks`.
 */
export function runsCodeLater(relative: string): boolean {
  // Upper case first: ſ (U+017F) has no lower case of its own but folds to s, as the Kelvin
  // sign folds to k, in the Unicode case folding APFS and HFS+ compare names by.
  const parts = relative.toUpperCase().toLowerCase().split('/');
  const name = parts.at(-1) ?? '';
  return FILES.has(name) || parts.some((part) => FOLDERS.has(part));
}
