import { extname, posix } from 'node:path';
import type { PermissionCheck, PermissionPolicy, PermissionVerdict } from 'dsh-agent';
import type { PermissionMode } from 'dsh-user-interaction';
import { type Workspace, workspaceRelative } from '../workspace/workspace.js';
import { analyseCommand, type CommandPart } from './command/analyse-command.js';
import { commandPrefix } from './command/command-prefix.js';
import { commandName } from './command/wrappers.js';
import { mayLeaveWorkspace } from './folder-change.js';
import { COMMAND_TOOL, type PermissionRule, parseRule, prefixMatches } from './permission-rule.js';
import {
  addRule,
  fileStamp,
  type RulesFileContents,
  readRulesFile,
  userRulesPath,
  workspaceRulesPath,
} from './rules-file.js';

/** @deprecated The same type as `PermissionMode` of `dsh-user-interaction`: use that name. */
export type PolicyMode = PermissionMode;

/** Options of `createPermissionPolicy`. */
export interface PermissionPolicyOptions {
  /** The workspace: reads inside it run without asking; anything outside always asks. */
  readonly workspace: Workspace;
  /** The state folder, where the rules files live. */
  readonly stateDir: string;
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
export interface WorkspacePermissionPolicy extends PermissionPolicy {
  /** Every rule in force, deny rules first (they win). Throws `RULES_FILE_INVALID` for a damaged file. */
  rules(): ListedRule[];
  /** Where this workspace's rules, and the person's own, are kept. */
  readonly files: { readonly workspace: string; readonly user: string };
}

interface LoadedRule {
  readonly rule: PermissionRule;
  readonly effect: 'allow' | 'deny';
  readonly source: string;
  readonly path?: string;
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
function ruleCovers(rule: string, relatives: readonly string[]): boolean {
  try {
    const parsed = parseRule(rule);
    return relatives.every((relative) => parsed.matchesPath?.(relative) === true);
  } catch {
    return false;
  }
}

function quoted(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``;
}

/**
 * The permission policy of one workspace (see the README): read-only mode first, then deny
 * rules (deny wins), then reads inside the workspace, then anything outside it (always asks),
 * then allow rules (every part of a command must be allowed), else ask, offering the narrowest
 * "always" rule that covers what the person sees. Rules files are read again whenever they change,
 * so several sessions share their "always" answers at once. Throws `RULE_INVALID` for a bad rule.
 */
export function createPermissionPolicy(
  options: PermissionPolicyOptions,
): WorkspacePermissionPolicy {
  const { workspace, stateDir } = options;
  const mode = options.mode ?? 'ask';
  const given: LoadedRule[] = [
    ...(options.deny ?? []).map((text) => ({
      rule: parseRule(text),
      effect: 'deny' as const,
      source: '--deny',
    })),
    ...(options.allow ?? []).map((text) => ({
      rule: parseRule(text),
      effect: 'allow' as const,
      source: '--allow',
    })),
  ];
  const files = {
    workspace: workspaceRulesPath(stateDir, workspace.root),
    user: userRulesPath(stateDir),
  };
  /** Each file's rules, parsed once per version of the file (a glob is compiled once). */
  const cache = new Map<string, { stamp: string | undefined; rules: readonly LoadedRule[] }>();

  function fileRules(path: string, source: string): readonly LoadedRule[] {
    const stamp = fileStamp(path);
    const cached = cache.get(path);
    if (cached !== undefined && cached.stamp === stamp) return cached.rules;
    const contents: RulesFileContents =
      stamp === undefined ? { allow: [], deny: [] } : readRulesFile(path);
    const rules = [
      ...contents.deny.map((text) => ({
        rule: parseRule(text),
        effect: 'deny' as const,
        source,
        path,
      })),
      ...contents.allow.map((text) => ({
        rule: parseRule(text),
        effect: 'allow' as const,
        source,
        path,
      })),
    ];
    cache.set(path, { stamp, rules });
    return rules;
  }

  function loaded(): LoadedRule[] {
    return [
      ...given,
      ...fileRules(files.workspace, 'workspace rules'),
      ...fileRules(files.user, 'your rules'),
    ];
  }

  function decidedBy(rule: LoadedRule) {
    return {
      kind: 'rule',
      rule: rule.rule.text,
      source: rule.path === undefined ? rule.source : `${rule.source}, ${rule.path}`,
    } as const;
  }

  function commandRuleMatches(rule: LoadedRule, part: CommandPart): boolean {
    if (rule.rule.tool !== COMMAND_TOOL) return false;
    // A rule allows what the person named, never the same as another user.
    if (rule.effect === 'allow' && part.elevated === true) return false;
    const { prefix } = rule.rule;
    if (prefix === undefined) return true;
    // A deny rule of one word meets the wrappers too: `sudo`, denied, denies `sudo ls`.
    if (rule.effect === 'deny' && prefix.length === 1 && part.via?.includes(prefix[0] as string))
      return true;
    return prefixMatches(prefix, part.words, rule.effect);
  }

  async function decideCommand(
    check: PermissionCheck,
    rules: LoadedRule[],
  ): Promise<PermissionVerdict> {
    const command = check.description.command;
    if (command === undefined) return { decision: 'ask' };
    const analysis = await analyseCommand(command.command);
    for (const rule of rules) {
      if (rule.effect !== 'deny') continue;
      if (rule.rule.prefix === undefined && rule.rule.tool === COMMAND_TOOL) {
        return { decision: 'deny', decidedBy: decidedBy(rule) };
      }
      if (analysis.parts.some((part) => commandRuleMatches(rule, part))) {
        return { decision: 'deny', decidedBy: decidedBy(rule) };
      }
    }
    // A command run elsewhere than in the workspace, or one that cannot be checked, always asks.
    if (workspaceRelative(workspace, command.cwd) === undefined) return { decision: 'ask' };
    if (analysis.problem !== undefined || analysis.writes) return { decision: 'ask' };
    if (await mayLeaveWorkspace(analysis.parts, command.cwd, workspace)) return { decision: 'ask' };
    // The allow rules by the name they begin with: a long command has many parts.
    const allowing = new Map<string | undefined, LoadedRule[]>();
    for (const rule of rules) {
      if (rule.effect !== 'allow' || rule.rule.tool !== COMMAND_TOOL) continue;
      const name = rule.rule.prefix?.[0];
      const named = allowing.get(name);
      if (named === undefined) allowing.set(name, [rule]);
      else named.push(rule);
    }
    const unmatched: CommandPart[] = [];
    const used: LoadedRule[] = [];
    for (const part of analysis.parts) {
      const first = part.words[0];
      const candidates = [
        ...(typeof first === 'string' ? (allowing.get(commandName(first)) ?? []) : []),
        ...(allowing.get(undefined) ?? []),
      ];
      const rule = candidates.find((candidate) => commandRuleMatches(candidate, part));
      if (rule === undefined) unmatched.push(part);
      else if (!used.includes(rule)) used.push(rule);
    }
    if (unmatched.length === 0 && used.length > 0) {
      const [first] = used as [LoadedRule];
      return {
        decision: 'allow',
        decidedBy:
          used.length === 1
            ? decidedBy(first)
            : { ...decidedBy(first), rule: used.map((rule) => rule.rule.text).join(', ') },
      };
    }
    // "Always" names only what the command begins with, as the person saw it.
    if (unmatched.some((part) => part.elevated === true || part.via !== undefined))
      return { decision: 'ask' };
    const prefixes = new Set(unmatched.map((part) => commandPrefix(part.words)?.join(' ')));
    if (prefixes.size !== 1 || prefixes.has(undefined)) return { decision: 'ask' };
    const prefix = [...prefixes][0] as string;
    const rule = `${COMMAND_TOOL}:${prefix}`;
    return {
      decision: 'ask',
      allowAlways: { rule, description: `Always allow ${quoted(prefix)} in this folder` },
      rejectAlways: { rule, description: `Always reject ${quoted(prefix)} in this folder` },
    };
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
    const allow = rules.find((rule) => rule.effect === 'allow' && ruleMatches(rule));
    if (allow !== undefined) return { decision: 'allow', decidedBy: decidedBy(allow) };
    const globs = new Set(relatives.map((relative) => fileGlob(relative as string)));
    if (globs.size !== 1) return { decision: 'ask' };
    const glob = [...globs][0] as string;
    const rule = `${toolName}:${glob}`;
    // A name no rule can hold (a control character in it) is asked each time.
    if (!ruleCovers(rule, relatives as string[])) return { decision: 'ask' };
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
    files,
    async decide(check) {
      const { description } = check;
      if (mode === 'read-only') {
        // Deny rules still win: `--deny read_file:secrets/**` holds in read-only mode too.
        const denied = check.toolName === COMMAND_TOOL ? undefined : decideFiles(check, loaded());
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
      return check.toolName === COMMAND_TOOL || description.command !== undefined
        ? decideCommand(check, rules)
        : decideFiles(check, rules);
    },
    async remember(rule, effect) {
      await addRule(files.workspace, rule, effect, { workspace: workspace.root });
      cache.delete(files.workspace);
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
