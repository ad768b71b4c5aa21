import { COMMAND_TOOL } from './permission-rule.js';
import {
  addRule,
  fileStamp,
  readRulesFile,
  userRulesPath,
  workspaceRulesPath,
} from './rules-file.js';

/** One set of remembered rules, and where it lives. */
export interface RememberedRules {
  /** Where the rules come from, for the person: `workspace rules`, `your rules`. */
  readonly source: string;
  /** The file that holds them, when a file does. */
  readonly path?: string;
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/**
 * Where a permission policy's remembered rules come from, and where the person's "always"
 * answers go: the rules files of a state folder (`fileRuleSource`), or a store of your own.
 */
export interface PermissionRuleSource {
  /**
   * The remembered rule sets, read before every decision. Return the very same object while a
   * set is unchanged: the policy parses each object's rules once. A throw fails the decision
   * (a damaged store is never read as "no rules").
   */
  read(): readonly RememberedRules[];
  /** Keeps a rule the person answered "always" for, for this workspace. */
  add(rule: string, effect: 'allow' | 'deny'): Promise<void>;
}

/** The rules files of one workspace, and where they are. */
export interface FileRuleSource extends PermissionRuleSource {
  /** Where this workspace's rules, and the person's own, are kept. */
  readonly files: { readonly workspace: string; readonly user: string };
}

/** Options of `fileRuleSource`. */
export interface FileRuleSourceOptions {
  /** The state folder, where the rules files live. */
  readonly stateDir: string;
  /** The workspace's root folder: its rules are kept in a file of their own. */
  readonly workspaceRoot: string;
  /** The tool whose rules are command prefixes (default `run_command`). */
  readonly commandTool?: string;
}

/**
 * The rules files of a state folder: the workspace's own ("always" answers go there) and the
 * person's, for every workspace. Each is read again whenever it changes, so several sessions
 * share their answers at once; each is trusted only as `readRulesFile` allows, and a damaged one
 * throws `RULES_FILE_INVALID`.
 */
export function fileRuleSource(options: FileRuleSourceOptions): FileRuleSource {
  const commandTool = options.commandTool ?? COMMAND_TOOL;
  const files = Object.freeze({
    workspace: workspaceRulesPath(options.stateDir, options.workspaceRoot),
    user: userRulesPath(options.stateDir),
  });
  /** Each file's rules, kept while the file is unchanged (the same object, parsed once). */
  const cache = new Map<string, { stamp: string | undefined; rules: RememberedRules }>();

  function fileRules(path: string, source: string): RememberedRules {
    const stamp = fileStamp(path);
    const cached = cache.get(path);
    if (cached !== undefined && cached.stamp === stamp) return cached.rules;
    const contents =
      stamp === undefined ? { allow: [], deny: [] } : readRulesFile(path, commandTool);
    const rules = Object.freeze({ source, path, ...contents });
    cache.set(path, { stamp, rules });
    return rules;
  }

  return {
    files,
    read: () => [
      fileRules(files.workspace, 'workspace rules'),
      fileRules(files.user, 'your rules'),
    ],
    async add(rule, effect) {
      await addRule(
        files.workspace,
        rule,
        effect,
        { workspace: options.workspaceRoot },
        commandTool,
      );
      cache.delete(files.workspace);
    },
  };
}
