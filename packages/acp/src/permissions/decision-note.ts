import type { PermissionOutcome } from 'dsh-user-interaction';

/** Rule text inside Markdown code: backticks would end it early. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Who decided a tool call, in one line for the person, shown in the call's content (Zed and
 * other editors render content, not `rawOutput`): "Allowed by rule `run_command:npm test`
 * (workspace rules)", "Allowed once by you", "Rejected by you; rule `x` saved", "Not run:
 * nobody approved it (ASK_CANCELLED)". `warning` (an "always" rule that could not be kept) follows.
 */
export function decisionNote(outcome: PermissionOutcome, warning?: string): string {
  const line = decisionLine(outcome);
  return warning === undefined ? line : `${line}\n\n${warning}`;
}

function decisionLine({ allowed, decidedBy }: PermissionOutcome): string {
  switch (decidedBy.kind) {
    case 'person':
      switch (decidedBy.choice) {
        case 'allow_once':
          return 'Allowed once by you';
        case 'reject_once':
          return 'Rejected by you';
        default:
          return `${allowed ? 'Allowed' : 'Rejected'} by you, and from now on by rule ${code(decidedBy.rule ?? '')}`;
      }
    case 'rule':
      return `${allowed ? 'Allowed' : 'Denied'} by rule ${code(decidedBy.rule)} (${decidedBy.source})`;
    case 'policy':
      return allowed
        ? `Allowed without asking: ${decidedBy.reason}`
        : `Not allowed: ${decidedBy.reason}`;
    case 'unanswered':
      return `Not run: nobody approved it (${decidedBy.code})`;
  }
}
