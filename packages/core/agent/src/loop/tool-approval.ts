import {
  isHarnessError,
  type PermissionOutcome,
  type PermissionRequest,
} from 'dsh-user-interaction';
import { AgentError } from './agent-error.js';
import type { AgentInteraction, ToolCallDescription, ToolResult } from './agent-tool.js';
import type { PermissionPolicy } from './permission-policy.js';
import { createToolCallAgent } from './tool-call-agent.js';
import { errorResult, type PreparedToolCall } from './tool-call-runner.js';

/** Where a call is decided. */
export interface ApprovalScope {
  readonly agentId: string;
  readonly interaction: AgentInteraction;
  readonly permissions: PermissionPolicy;
  readonly questionTimeoutMs: number | undefined;
  readonly signal: AbortSignal;
  /**
   * Called right before the person is asked (to record it), not when a rule decides; the
   * approval is shown once what it returns resolves (the record written).
   */
  readonly onAsk?: () => Promise<void> | undefined;
}

/** A decision on a call, and what went wrong keeping the rule an "always" answer wrote. */
export interface Approval {
  readonly outcome: PermissionOutcome;
  /** Set when the rule the person chose "always" for could not be kept. */
  readonly warning?: string;
}

function deny(reason: string): PermissionOutcome {
  return Object.freeze({ allowed: false, decidedBy: Object.freeze({ kind: 'policy', reason }) });
}

/** A failure's message when it is safe to show (a `HarnessError`), else a generic one. */
function messageOf(error: unknown): string {
  return isHarnessError(error) ? error.message : 'an unexpected internal error';
}

function requestFor(
  prepared: PreparedToolCall,
  description: ToolCallDescription,
  scope: ApprovalScope,
  verdict: {
    allowAlways?: PermissionRequest['allowAlways'];
    rejectAlways?: PermissionRequest['rejectAlways'];
  },
): PermissionRequest {
  const paths = [...new Set((description.locations ?? []).map((location) => location.path))];
  const { questionTimeoutMs } = scope;
  return {
    toolCallId: prepared.call.id,
    title: description.title ?? prepared.title,
    kind: description.kind,
    ...(paths.length > 0 && { paths }),
    ...(description.edit !== undefined && { edit: description.edit }),
    ...(description.command !== undefined && { command: description.command }),
    ...(verdict.allowAlways !== undefined && { allowAlways: verdict.allowAlways }),
    ...(verdict.rejectAlways !== undefined && { rejectAlways: verdict.rejectAlways }),
    agent: createToolCallAgent(scope.agentId, prepared.call.id),
    signal: scope.signal,
    ...(questionTimeoutMs !== undefined && { timeoutMs: questionTimeoutMs }),
  };
}

/**
 * Decides a described call before it runs: the policy first (a rule, or the policy's own
 * reason), else the person through the agent's question service. An "always" answer is kept by
 * the policy. Never rejects: a policy that fails denies the call, and so does nobody answering.
 */
export async function approveCall(
  prepared: PreparedToolCall,
  description: ToolCallDescription,
  scope: ApprovalScope,
): Promise<Approval> {
  const { permissions, interaction } = scope;
  let verdict: Awaited<ReturnType<PermissionPolicy['decide']>>;
  try {
    verdict = await permissions.decide({
      toolName: prepared.call.name,
      args: prepared.args,
      description,
    });
  } catch (error) {
    return { outcome: deny(`the permission rules could not be read: ${messageOf(error)}`) };
  }
  if (verdict.decision !== 'ask') {
    return {
      outcome: Object.freeze({
        allowed: verdict.decision === 'allow',
        decidedBy: verdict.decidedBy,
      }),
    } as Approval;
  }
  if (typeof interaction.requestPermission !== 'function') {
    return {
      outcome: Object.freeze({
        allowed: false,
        decidedBy: Object.freeze({
          kind: 'unanswered',
          code: 'UNSUPPORTED',
          message: 'This agent has no UI that can ask the person to approve a tool call.',
        }),
      }),
    };
  }
  const recorded = scope.onAsk?.();
  if (recorded !== undefined) await recorded;
  const outcome = await interaction.requestPermission(
    requestFor(prepared, description, scope, verdict),
  );
  const { decidedBy } = outcome;
  if (
    decidedBy.kind !== 'person' ||
    decidedBy.rule === undefined ||
    permissions.remember === undefined
  ) {
    return { outcome };
  }
  try {
    await permissions.remember(decidedBy.rule, outcome.allowed ? 'allow' : 'deny');
    return { outcome };
  } catch (error) {
    return {
      outcome,
      warning: `The rule \`${decidedBy.rule}\` could not be saved (${messageOf(error)}): it holds for this call only.`,
    };
  }
}

/** Who denied a call, in words for the model. */
function deniedBy(outcome: PermissionOutcome): string {
  const { decidedBy } = outcome;
  switch (decidedBy.kind) {
    case 'person':
      return decidedBy.choice === 'reject_always'
        ? `The person rejected this call, and every call like it (rule \`${decidedBy.rule}\`)`
        : 'The person rejected this call';
    case 'rule':
      return `The rule \`${decidedBy.rule}\` (${decidedBy.source}) denies this call`;
    case 'policy':
      return `This call is not allowed: ${decidedBy.reason}`;
    case 'unanswered':
      return `Nobody approved this call (${decidedBy.code}: ${decidedBy.message.replace(/\.$/, '')})`;
  }
}

/** The result a denied call gets instead of running: said plainly, and that it did not run. */
export function deniedResult(outcome: PermissionOutcome): ToolResult {
  return errorResult(
    new AgentError(
      `${deniedBy(outcome)}, so it did not run and changed nothing. Do not try to get round the refusal; ask the person, or do something else.`,
      'PERMISSION_DENIED',
    ),
  );
}
