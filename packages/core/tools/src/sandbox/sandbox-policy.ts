import type { SandboxConfinement } from 'dsh-user-interaction';
import type { PermissionVerdict } from 'dsh-user-interaction/agent-tool';
import type { RulesPermissionPolicy } from '../policy/permission-policy.js';
import type { CommandSandbox } from './command-sandbox.js';

/** Options of `sandboxPermissionPolicy`. */
export interface SandboxPolicyOptions {
  /** How commands run. */
  readonly sandbox: CommandSandbox;
  /**
   * `--permission-mode allow-sandboxed`: a command that stays in the sandbox runs unasked unless
   * a rule denies it. Never applies when the sandbox is not running.
   */
  readonly allowSandboxed?: boolean;
}

/** What a widened command reaches, in the words of its question and its "always" rule. */
const WIDENED: Record<Exclude<SandboxConfinement, 'sandboxed'>, { mark: string; words: string }> = {
  network: { mark: '+network', words: 'with the network' },
  none: { mark: '+unsandboxed', words: 'outside the sandbox, with your full powers' },
};

function quoted(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``;
}

/**
 * The workspace policy with the sandbox's two rules on top. Leaving the sandbox (a command with
 * `sandbox: "network"` or `"none"`) is always its own question: deny rules still deny it, but no
 * allow rule and no mode allows it; only the person does, and "always" remembers that exact
 * command with that exact widening, for this session. With `allowSandboxed`, a command that
 * stays in the running sandbox and that no rule denies runs without asking.
 */
export function sandboxPermissionPolicy<Policy extends RulesPermissionPolicy>(
  inner: Policy,
  options: SandboxPolicyOptions,
): Policy {
  const { sandbox } = options;
  const { commandTool } = inner;
  /** Widenings the person allowed "always", each `mark` NUL command. */
  const widenings = new Set<string>();
  // What the inner policy tells of itself (its rules files, say), with the sandbox's decisions.
  return {
    ...inner,
    rules: () => inner.rules(),
    async decide(check): Promise<PermissionVerdict> {
      const verdict = await inner.decide(check);
      const command = check.description.command;
      if (command === undefined || !sandbox.active || verdict.decision === 'deny') return verdict;
      const confinement = command.sandbox?.confinement ?? 'sandboxed';
      if (confinement === 'sandboxed') {
        if (options.allowSandboxed !== true || verdict.decision === 'allow') return verdict;
        return {
          decision: 'allow',
          decidedBy: {
            kind: 'policy',
            reason: 'it runs in the sandbox (--permission-mode allow-sandboxed)',
          },
        };
      }
      const { mark, words } = WIDENED[confinement];
      const rule = `${commandTool}${mark}:${command.command}`;
      if (widenings.has(`${mark}\u0000${command.command}`)) {
        return {
          decision: 'allow',
          decidedBy: { kind: 'rule', rule, source: 'your answer "always", this session' },
        };
      }
      // Allowed by a rule, or asked with its own "always": either way the person is asked here.
      const short =
        command.command.length > 200 ? `${command.command.slice(0, 199)}…` : command.command;
      return {
        decision: 'ask',
        allowAlways: {
          rule,
          description: `Always run exactly ${quoted(short)} ${words}, in this session`,
        },
      };
    },
    async remember(rule, effect) {
      for (const { mark } of Object.values(WIDENED)) {
        const prefix = `${commandTool}${mark}:`;
        if (!rule.startsWith(prefix)) continue;
        if (effect === 'allow') widenings.add(`${mark}\u0000${rule.slice(prefix.length)}`);
        return;
      }
      await inner.remember?.(rule, effect);
    },
  };
}
