import type { CommandSandbox } from './command-sandbox.js';

/**
 * The one line a program says at start about its commands: whether they run in the sandbox,
 * and if not, why and how to fix it; and whether sandboxed commands run without asking.
 */
export function sandboxStatusLine(sandbox: CommandSandbox, allowSandboxed = false): string {
  const { status, choice } = sandbox;
  if (sandbox.active) {
    const asks = allowSandboxed
      ? ' Sandboxed commands run without asking unless a rule denies them (--permission-mode allow-sandboxed).'
      : '';
    return `Sandbox: on (bubblewrap): commands write only the workspace and a private /tmp, have no network, and cannot read ~/.ssh, your keys or the agent's state; anything more is asked first.${asks}`;
  }
  const unused = allowSandboxed
    ? ' --permission-mode allow-sandboxed has no effect without the sandbox: every command asks.'
    : '';
  if (choice === 'off') {
    return `Sandbox: off (--sandbox off): commands run with your full powers.${unused}`;
  }
  if (status.available) return `Sandbox: off: commands run with your full powers.${unused}`;
  if (choice === 'on') {
    return `Sandbox: required (--sandbox on) but not available: ${status.reason}. Every command will be refused. Fix: ${status.fix}.`;
  }
  return `Sandbox: not available: ${status.reason}. Commands run with your full powers, each asked as before. Fix: ${status.fix}; or --sandbox off to say you mean it.${unused}`;
}
