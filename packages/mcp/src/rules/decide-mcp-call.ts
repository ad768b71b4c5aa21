import type { PermissionRuleScope } from 'dsh-user-interaction';
import { type McpRuleTarget, parseMcpRule, pinnedRule, ruleNames, toolRule } from './mcp-rule.js';

/** The rules an MCP call is decided by, as their texts (from a rules file, flags, a session). */
export interface McpRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** What the rules say of a call: allowed or denied by a rule, or the person must be asked. */
export type McpCallDecision =
  | { readonly decision: 'allow' | 'deny'; readonly rule: string }
  | {
      readonly decision: 'ask';
      /** The rule "allow always" writes: the tool pinned to what it says now. */
      readonly allowAlways: PermissionRuleScope;
      /** The rule "reject always" writes: the tool, whatever it says. */
      readonly rejectAlways: PermissionRuleScope;
      /** Set when an "always" rule allowed this tool as it was: it changed since. */
      readonly changedSince?: string;
    };

/** What `decideMcpCall` may say besides the rules. */
export interface DecideMcpCallOptions {
  /**
   * What changed since the tool had the digest an "always" rule pinned (`toolChanges` of the
   * definition kept then), for the person; `undefined` when the old definition is not known.
   */
  readonly whatChanged?: (pinnedDigest: string) => string | undefined;
}

/**
 * Decides an MCP tool call by the rules, failing closed:
 * - a deny rule naming the tool or its server denies it (whatever the tool says now);
 * - an allow rule naming it allows it when it pins no digest (a person wrote it, or opted the
 *   server in with `mcp:<server>:*`) or pins the tool's digest now;
 * - an allow rule pinning another digest allows nothing: the server changed the tool's
 *   description, schema or annotations since the person said "always", so they are asked again.
 * Everything else asks. A server's annotations (`readOnlyHint`...) are never read here.
 */
export function decideMcpCall(
  target: McpRuleTarget,
  rules: McpRules,
  options: DecideMcpCallOptions = {},
): McpCallDecision {
  for (const text of rules.deny) {
    const rule = parseMcpRule(text);
    if (rule !== undefined && ruleNames(rule, target)) return { decision: 'deny', rule: text };
  }
  let changedSince: string | undefined;
  let what: string | undefined;
  for (const text of rules.allow) {
    const rule = parseMcpRule(text);
    if (rule === undefined || !ruleNames(rule, target)) continue;
    if (rule.digest === undefined || rule.digest === target.digest)
      return { decision: 'allow', rule: text };
    changedSince = text;
    what ??= options.whatChanged?.(rule.digest);
  }
  const name = `\`${target.toolName}\` of the MCP server ${target.serverName}`;
  return {
    decision: 'ask',
    allowAlways: {
      rule: pinnedRule(target),
      description:
        changedSince === undefined
          ? `Always allow ${name} while it stays as it is now`
          : what === undefined
            ? `Always allow ${name} as it is now (it changed since you allowed it: its description, arguments or hints)`
            : `Always allow ${name} as it is now (it changed since you allowed it: ${what})`,
    },
    rejectAlways: { rule: toolRule(target), description: `Always reject ${name}` },
    ...(changedSince !== undefined && { changedSince }),
  };
}
