import type { PermissionDecider, PermissionRuleScope } from '../permission-request.js';
import type { ToolCallDescription } from './agent-tool.js';

/** A tool call the policy decides on: which tool, its arguments, and what it will do. */
export interface PermissionCheck {
  readonly toolName: string;
  readonly args: unknown;
  readonly description: ToolCallDescription;
}

/** What the policy says of a call: run it, refuse it, or ask the person. */
export type PermissionVerdict =
  | {
      readonly decision: 'allow' | 'deny';
      /** Which rule (and where it lives), or why the policy itself decided. */
      readonly decidedBy: Extract<PermissionDecider, { readonly kind: 'rule' | 'policy' }>;
    }
  | {
      readonly decision: 'ask';
      /** The rule "allow always" would write; absent: it is not offered. */
      readonly allowAlways?: PermissionRuleScope;
      /** The rule "reject always" would write; absent: it is not offered. */
      readonly rejectAlways?: PermissionRuleScope;
    };

/**
 * Decides which tool calls run without asking (see `createPermissionPolicy` in `dsh-tools`).
 * Called for every call of a tool that has `describe`, before anything runs.
 */
export interface PermissionPolicy {
  decide(check: PermissionCheck): PermissionVerdict | Promise<PermissionVerdict>;
  /**
   * Keeps the rule the person chose "always" for, so that it decides the next such call. A
   * failure to keep it is reported to the person; the call itself was decided all the same.
   */
  remember?(rule: string, effect: 'allow' | 'deny'): void | Promise<void>;
}
