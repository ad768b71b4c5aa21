import type { PermissionDecider, PermissionRuleScope } from 'dsh-user-interaction';
import type { McpToolSet } from '../tools/mcp-tool-set.js';
import { decideMcpCall, type McpRules } from './decide-mcp-call.js';
import { parseMcpRule } from './mcp-rule.js';

/** A call the policy decides: the shape of `dsh-agent`'s `PermissionCheck` that it reads. */
export interface McpPermissionCheck {
  readonly toolName: string;
  readonly args: unknown;
  readonly description: unknown;
}

/** What the policy says: the shape of `dsh-agent`'s `PermissionVerdict`. */
export type McpPermissionVerdict =
  | {
      readonly decision: 'allow' | 'deny';
      readonly decidedBy: Extract<PermissionDecider, { readonly kind: 'rule' | 'policy' }>;
    }
  | {
      readonly decision: 'ask';
      readonly allowAlways?: PermissionRuleScope;
      readonly rejectAlways?: PermissionRuleScope;
    };

/** A permission policy: the shape of `dsh-agent`'s `PermissionPolicy` (a test checks they agree). */
export interface McpPermissionPolicy {
  decide(check: McpPermissionCheck): McpPermissionVerdict | Promise<McpPermissionVerdict>;
  remember?(rule: string, effect: 'allow' | 'deny'): void | Promise<void>;
}

/** What `withMcpRules` composes. */
export interface WithMcpRulesOptions {
  /** The servers whose tools these rules cover (read at each decision: servers come and go). */
  readonly toolSets: () => readonly McpToolSet[];
  /** The MCP rules in force (read at each decision); "always" answers of this session are added. */
  readonly rules?: () => McpRules;
  /** Where the rules live, as the person is told ("~/.dsh/rules"); default "MCP rules". */
  readonly source?: string;
  /** The policy for every other tool (the workspace's); without it, other calls ask. */
  readonly fallback?: McpPermissionPolicy;
  /** Keeps an MCP "always" rule beyond this session (a rules file); failures are the caller's to report. */
  readonly remember?: (rule: string, effect: 'allow' | 'deny') => void | Promise<void>;
}

/**
 * A permission policy that decides MCP tool calls by MCP rules (`decideMcpCall`: digest-pinned
 * "always", per-server opt-in, annotations never trusted) and hands every other call to
 * `fallback`. "Always" answers for MCP tools are kept for the session and passed to `remember`.
 */
export function withMcpRules(options: WithMcpRulesOptions): McpPermissionPolicy {
  const session: { allow: string[]; deny: string[] } = { allow: [], deny: [] };
  const source = options.source ?? 'MCP rules';
  return {
    decide(check) {
      const info = options
        .toolSets()
        .map((set) => set.info(check.toolName))
        .find((found) => found !== undefined);
      if (info === undefined) return options.fallback?.decide(check) ?? { decision: 'ask' };
      const kept = options.rules?.() ?? { allow: [], deny: [] };
      const decision = decideMcpCall(info, {
        allow: [...kept.allow, ...session.allow],
        deny: [...kept.deny, ...session.deny],
      });
      if (decision.decision === 'ask')
        return {
          decision: 'ask',
          allowAlways: decision.allowAlways,
          rejectAlways: decision.rejectAlways,
        };
      return {
        decision: decision.decision,
        decidedBy: { kind: 'rule', rule: decision.rule, source },
      };
    },
    async remember(rule, effect) {
      if (parseMcpRule(rule) === undefined) return options.fallback?.remember?.(rule, effect);
      session[effect].push(rule);
      await options.remember?.(rule, effect);
    },
  };
}
