import { extname, posix } from 'node:path';
import type { PermissionMode } from 'dsh-user-interaction';
import type {
  PermissionCheck,
  PermissionPolicy,
  PermissionVerdict,
} from 'dsh-user-interaction/agent-tool';
import { leadsThroughCodeLink } from '../workspace/code-links.js';
import { runsCodeLater } from '../workspace/runs-code-later.js';
import { type Workspace, workspaceRelative } from '../workspace/workspace.js';
import { decideCommand, decidedBy, type LoadedRule, quoted } from './command-verdict.js';
import { COMMAND_TOOL, parseRule } from './permission-rule.js';
import {
  type FileRuleSource,
  fileRuleSource,
  type PermissionRuleSource,
  type RememberedRules,
} from './rule-source.js';

/** @deprecated The same type as `PermissionMode` of `dsh-user-interaction`: use that name. */
export type PolicyMode = PermissionMode;

/** Options of `createPermissionPolicy`. */
export interface PermissionPolicyOptions {
  /** The workspace: reads inside it run without asking; anything outside always asks. */
  readonly workspace: Workspace;
  /** The state folder whose rules files hold the remembered rules (`fileRuleSource`). */
  readonly stateDir?: string;
  /** Where remembered rules come from and "always" answers go, instead of `stateDir`'s files. */
  readonly rules?: PermissionRuleSource;
  /** The tool whose rules are command prefixes and whose calls are commands (default `run_command`). */
  readonly commandTool?: string;
  /** Rules that allow calls for this run only (`--allow`). */
  readonly allow?: readonly string[];
  /** Rules that deny calls for this run only (`--deny`); deny wins over allow. */
  readonly deny?: readonly string[];
  /**
   * `read-only`: nothing that changes files or runs commands runs, and nothing is asked. The
   * policy decides `allow-sandboxed` as `ask`: `sandboxPermissionPolicy` runs sandboxed commands.
   */
  readonly mode?: PermissionMode;
}

/** A rule in force, and where it lives. */
export interface ListedRule {
  readonly rule: string;
  readonly effect: 'allow' | 'deny';
  /** `--allow` / `--deny` (this run), `workspace rules` or `your rules`. */
  readonly source: string;
  /** The file it is in, for the rules of a file. */
  readonly path?: string;
}

/** The policy of one workspace, with what it can tell of its rules. */
export interface RulesPermissionPolicy extends PermissionPolicy {
  /** Every rule in force, deny rules first (they win). Throws `RULES_FILE_INVALID` for a damaged file. */
  rules(): ListedRule[];
  /** The tool whose rules are command prefixes. */
  readonly commandTool: string;
}

/** The policy of one workspace whose rules are in the rules files of a state folder. */
export interface WorkspacePermissionPolicy extends RulesPermissionPolicy {
  /** Where this workspace's rules, and the person's own, are kept. */
  readonly files: FileRuleSource['files'];
}

const READS_INSIDE = Object.freeze({
  kind: 'policy',
  reason: 'it only reads inside the workspace',
} as const);

/** `text` with every character a glob gives a meaning escaped, so that it matches only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@|]/g, '\\$&');
}

/** Whether `rule` can be written and covers every path it was made for. */
function ruleCovers(rule: string, relatives: readonly string[], commandTool: string): boolean {
  try {
    const parsed = parseRule(rule, commandTool);
    return relatives.every((relative) => parsed.matchesPath?.(relative) === true);
  } catch {
    return false;
  }
}

/**
 * The permission policy of one workspace (see the README): read-only mode first, then deny
 * rules (deny wins), then reads inside the workspace, then anything outside it (always asks),
 * then allow rules (every part of a command must be allowed), else ask, offering the narrowest
 * "always" rule that covers what the person sees. Rules files are read again whenever they change,
 * so several sessions share their "always" answers at once. Throws `RULE_INVALID` for a bad rule.
 */
export function createPermissionPolicy(
  options: PermissionPolicyOptions & { readonly stateDir: string; readonly rules?: undefined },
): WorkspacePermissionPolicy;
export function createPermissionPolicy(
  options: PermissionPolicyOptions & { readonly rules: PermissionRuleSource },
): RulesPermissionPolicy;
export function createPermissionPolicy(options: PermissionPolicyOptions): RulesPermissionPolicy;
export function createPermissionPolicy(
  options: PermissionPolicyOptions,
): RulesPermissionPolicy | WorkspacePermissionPolicy {
  const { workspace } = options;
  const mode = options.mode ?? 'ask';
  const commandTool = options.commandTool ?? COMMAND_TOOL;
  const parse = (text: string) => parseRule(text, commandTool);
  const given: LoadedRule[] = [
    ...(options.deny ?? []).map((text) => ({
      rule: parse(text),
      effect: 'deny' as const,
      source: '--deny',
    })),
    ...(options.allow ?? []).map((text) => ({
      rule: parse(text),
      effect: 'allow' as const,
      source: '--allow',
    })),
  ];
  let files: FileRuleSource['files'] | undefined;
  let source: PermissionRuleSource;
  if (options.rules !== undefined) source = options.rules;
  else if (options.stateDir !== undefined) {
    const fileSource = fileRuleSource({
      stateDir: options.stateDir,
      workspaceRoot: workspace.root,
      commandTool,
    });
    files = fileSource.files;
    source = fileSource;
  } else {
    throw new TypeError('createPermissionPolicy needs a `stateDir` or a `rules` source.');
  }
  /** Each remembered set's rules, parsed once per set the source hands out. */
  const parsed = new WeakMap<RememberedRules, readonly LoadedRule[]>();

  function rememberedRules(set: RememberedRules): readonly LoadedRule[] {
    const known = parsed.get(set);
    if (known !== undefined) return known;
    const where = { source: set.source, ...(set.path !== undefined && { path: set.path }) };
    const rules = [
      ...set.deny.map((text) => ({ rule: parse(text), effect: 'deny' as const, ...where })),
      ...set.allow.map((text) => ({ rule: parse(text), effect: 'allow' as const, ...where })),
    ];
    parsed.set(set, rules);
    return rules;
  }

  function loaded(): LoadedRule[] {
    return [...given, ...source.read().flatMap(rememberedRules)];
  }

  /**
   * The narrowest glob worth remembering for a file: its folder and extension, or the file itself
   * at the top. The names are escaped: a file named `**` must not write a rule for every file,
   * nor `app/[id]/page.tsx` one for `app/i/x.tsx`.
   */
  function fileGlob(relative: string): string {
    const folder = posix.dirname(relative);
    const extension = extname(relative);
    if (folder === '.' || extension === '') return escapeGlob(relative);
    return `${escapeGlob(folder)}/*${escapeGlob(extension)}`;
  }

  function decideFiles(check: PermissionCheck, rules: LoadedRule[]): PermissionVerdict {
    const { toolName, description } = check;
    const relatives = (description.locations ?? []).map((location) =>
      workspaceRelative(workspace, location.path),
    );
    const inside = relatives.every((relative) => relative !== undefined);
    const ruleMatches = (rule: LoadedRule): boolean =>
      rule.rule.tool === toolName &&
      (rule.rule.matchesPath === undefined ||
        (relatives.length > 0 &&
          relatives.some(
            (relative) => relative !== undefined && rule.rule.matchesPath?.(relative) === true,
          ) &&
          (rule.effect === 'deny' ||
            relatives.every(
              (relative) => relative !== undefined && rule.rule.matchesPath?.(relative) === true,
            ))));
    const deny = rules.find((rule) => rule.effect === 'deny' && ruleMatches(rule));
    if (deny !== undefined) return { decision: 'deny', decidedBy: decidedBy(deny) };
    const reads = description.kind === 'read' || description.kind === 'search';
    if (reads && inside) return { decision: 'allow', decidedBy: READS_INSIDE };
    if (!inside) return { decision: 'ask' };
    // A change to what git, an editor, a shell or the agent runs later always asks, whatever
    // the rules allow, and is never offered "always": a rule for `src/**` was not given for it.
    // So does one that lands where a link named for one of them leads (`.vscode -> editor`).
    if (
      relatives.some((relative) => runsCodeLater(relative as string)) ||
      (description.locations ?? []).some((location) =>
        leadsThroughCodeLink(workspace, location.path),
      )
    ) {
      return { decision: 'ask' };
    }
    const allow = rules.find((rule) => rule.effect === 'allow' && ruleMatches(rule));
    if (allow !== undefined) return { decision: 'allow', decidedBy: decidedBy(allow) };
    const globs = new Set(relatives.map((relative) => fileGlob(relative as string)));
    if (globs.size !== 1) return { decision: 'ask' };
    const glob = [...globs][0] as string;
    const rule = `${toolName}:${glob}`;
    // A name no rule can hold (a control character in it) is asked each time.
    if (!ruleCovers(rule, relatives as string[], commandTool)) return { decision: 'ask' };
    return {
      decision: 'ask',
      allowAlways: {
        rule,
        description: `Always allow ${toolName} on ${quoted(glob)} in this folder`,
      },
      rejectAlways: {
        rule,
        description: `Always reject ${toolName} on ${quoted(glob)} in this folder`,
      },
    };
  }

  return {
    ...(files !== undefined && { files }),
    commandTool,
    async decide(check) {
      const { description } = check;
      if (mode === 'read-only') {
        // Deny rules still win: `--deny read_file:secrets/**` holds in read-only mode too.
        const denied = check.toolName === commandTool ? undefined : decideFiles(check, loaded());
        if (denied?.decision === 'deny') return denied;
        const reads = description.kind === 'read' || description.kind === 'search';
        const inside = (description.locations ?? []).every(
          (location) => workspaceRelative(workspace, location.path) !== undefined,
        );
        if (reads && inside) return { decision: 'allow', decidedBy: READS_INSIDE };
        return {
          decision: 'deny',
          decidedBy: {
            kind: 'policy',
            reason:
              'the agent runs in read-only mode (--permission-mode read-only): nothing that changes files, runs commands or reads outside the workspace runs',
          },
        };
      }
      const rules = loaded();
      return check.toolName === commandTool || description.command !== undefined
        ? decideCommand(check, rules, workspace, commandTool)
        : decideFiles(check, rules);
    },
    async remember(rule, effect) {
      await source.add(rule, effect);
    },
    rules() {
      return loaded()
        .sort((a, b) => (a.effect === b.effect ? 0 : a.effect === 'deny' ? -1 : 1))
        .map((rule) => ({
          rule: rule.rule.text,
          effect: rule.effect,
          source: rule.source,
          ...(rule.path !== undefined && { path: rule.path }),
        }));
    },
  };
}
