import type { PermissionMode } from 'dsh-user-interaction';
import type { WorkspacePermissionPolicy } from '../policy/permission-policy.js';

const MODES: Readonly<Record<PermissionMode, string>> = {
  'read-only': 'read-only: nothing that changes files or runs commands runs, and nothing is asked',
  ask: 'ask: reads inside the workspace run; every edit, write and command asks unless a rule decides; anything outside the workspace always asks',
  'allow-sandboxed':
    'allow-sandboxed: as ask, except that a command that stays in the running sandbox runs unasked unless a rule denies it',
};

/**
 * What `--permissions` prints: the rules in force (deny first: deny wins), each with where it
 * lives, then the files rules are kept in and what decides when no rule does.
 */
export function rulesText(policy: WorkspacePermissionPolicy, mode: PermissionMode = 'ask'): string {
  const rules = policy.rules();
  const lines: string[] = [];
  if (rules.length === 0) lines.push('No rules: every edit, write and command asks first.');
  else {
    lines.push('Rules in force (deny wins over allow):');
    for (const rule of rules) {
      lines.push(
        `  ${rule.effect === 'deny' ? 'deny ' : 'allow'}  ${rule.rule}  (${rule.source}${rule.path === undefined ? '' : `: ${rule.path}`})`,
      );
    }
  }
  lines.push(
    '',
    `Mode: ${MODES[mode]}.`,
    `This folder's rules ("always" answers): ${policy.files.workspace}`,
    `Your rules for every folder: ${policy.files.user}`,
    'A rule is TOOL or TOOL:PATTERN: run_command:npm test (a command prefix in words), write_file:docs/** (a path glob).',
  );
  return `${lines.join('\n')}\n`;
}
