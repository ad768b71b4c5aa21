import type { PermissionCheck, PermissionVerdict } from 'dsh-user-interaction/agent-tool';
import { type Workspace, workspaceRelative } from '../workspace/workspace.js';
import type { CommandPart } from './command/analyse-command.js';
import { commandName } from './command/command-name.js';
import { mayLeaveWorkspace } from './folder-change.js';
import { analyseCommand } from './lazy-analyse-command.js';
import { type PermissionRule, prefixMatches } from './permission-rule.js';

/** A rule in force, as the policy holds it: parsed, with its effect and where it lives. */
export interface LoadedRule {
  readonly rule: PermissionRule;
  readonly effect: 'allow' | 'deny';
  readonly source: string;
  readonly path?: string;
}

/** Who decided, for a rule: the rule, and where it lives. */
export function decidedBy(rule: LoadedRule) {
  return {
    kind: 'rule',
    rule: rule.rule.text,
    source: rule.path === undefined ? rule.source : `${rule.source}, ${rule.path}`,
  } as const;
}

/** `text` in backquotes, for a question's words. */
export function quoted(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``;
}

function commandRuleMatches(rule: LoadedRule, part: CommandPart, commandTool: string): boolean {
  if (rule.rule.tool !== commandTool) return false;
  // A rule allows what the person named, never the same as another user.
  if (rule.effect === 'allow' && part.elevated === true) return false;
  const { prefix } = rule.rule;
  if (prefix === undefined) return true;
  // A deny rule of one word meets the wrappers too: `sudo`, denied, denies `sudo ls`.
  if (rule.effect === 'deny' && prefix.length === 1 && part.via?.includes(prefix[0] as string))
    return true;
  return prefixMatches(prefix, part.words, rule.effect);
}

/**
 * The verdict on a command: deny rules (deny wins), then a command run outside the workspace,
 * one that cannot be checked or that writes (always asks), then allow rules (every part of the
 * command must be allowed), else ask, offering the command's prefix as the "always" rule.
 */
export async function decideCommand(
  check: PermissionCheck,
  rules: readonly LoadedRule[],
  workspace: Workspace,
  commandTool: string,
): Promise<PermissionVerdict> {
  const command = check.description.command;
  if (command === undefined) return { decision: 'ask' };
  const analysis = await analyseCommand(command.command);
  // Loaded with the command reader, for the same reason (see `lazy-analyse-command.ts`).
  const { commandPrefix } = await import('./command/command-prefix.js');
  for (const rule of rules) {
    if (rule.effect !== 'deny') continue;
    if (rule.rule.prefix === undefined && rule.rule.tool === commandTool) {
      return { decision: 'deny', decidedBy: decidedBy(rule) };
    }
    if (analysis.parts.some((part) => commandRuleMatches(rule, part, commandTool))) {
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
    if (rule.effect !== 'allow' || rule.rule.tool !== commandTool) continue;
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
    const rule = candidates.find((candidate) => commandRuleMatches(candidate, part, commandTool));
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
  const rule = `${commandTool}:${prefix}`;
  return {
    decision: 'ask',
    allowAlways: { rule, description: `Always allow ${quoted(prefix)} in this folder` },
    rejectAlways: { rule, description: `Always reject ${quoted(prefix)} in this folder` },
  };
}
