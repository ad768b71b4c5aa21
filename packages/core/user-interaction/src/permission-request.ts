import type { Agent } from './agent.js';
import type { UserInteractionErrorCode } from './errors/user-interaction-error.js';

/** What a tool call does, in ACP's words. `read` and `search` are for calls that change nothing. */
export const PERMISSION_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'fetch',
  'other',
] as const;

/** What a tool call does (see `PERMISSION_KINDS`). */
export type PermissionKind = (typeof PERMISSION_KINDS)[number];

/** The four answers to an approval, in ACP's words. */
export const PERMISSION_CHOICES = [
  'allow_once',
  'allow_always',
  'reject_once',
  'reject_always',
] as const;

/** What the person chose (see `PERMISSION_CHOICES`). */
export type PermissionChoice = (typeof PERMISSION_CHOICES)[number];

/** The rule an "always" answer writes, and what it covers, said so that the person sees its scope. */
export interface PermissionRuleScope {
  /** The rule as a rules file holds it, such as `run_command:npm test` or `edit_file:src/*.ts`. */
  readonly rule: string;
  /** What it covers, for the person: "Always allow `npm test` in this folder". */
  readonly description: string;
}

/** The change an edit or a write makes to one file. */
export interface PermissionEdit {
  /** The file, absolute. */
  readonly path: string;
  /** Its text before the change; `null` for a file the call creates. */
  readonly oldText: string | null;
  /** Its text after the change. */
  readonly newText: string;
}

/**
 * How far a command reaches: `sandboxed` (an OS sandbox: it writes only its workspace and a
 * private temporary folder, and has no network), `network` (the same sandbox with the network),
 * `none` (no sandbox: the person's own powers).
 */
export const SANDBOX_CONFINEMENTS = ['sandboxed', 'network', 'none'] as const;

/** How far a command reaches (see `SANDBOX_CONFINEMENTS`). */
export type SandboxConfinement = (typeof SANDBOX_CONFINEMENTS)[number];

/** Whether a command runs in an OS sandbox, said so that the person sees what it can reach. */
export interface PermissionSandbox {
  readonly confinement: SandboxConfinement;
  /** One line for the person: what the command can reach, or why it has no sandbox. */
  readonly note: string;
}

/** A command and the folder it runs in. */
export interface PermissionCommand {
  /** The command line, as `bash -c` receives it. */
  readonly command: string;
  /** The folder it runs in, absolute. */
  readonly cwd: string;
  /** Whether it runs in an OS sandbox; absent when the tool does not say. */
  readonly sandbox?: PermissionSandbox;
}

/**
 * A request to approve one tool call, as a tool or permission plugin describes it: what the
 * call is, what it touches and changes, and what "always" would remember.
 */
export interface PermissionRequest {
  /** The id of the tool call to approve. */
  readonly toolCallId: string;
  /** One line that says what the call does, such as "Run npm test". Non-blank. */
  readonly title: string;
  /** What kind of call it is. */
  readonly kind: PermissionKind;
  /** The absolute paths the call touches. */
  readonly paths?: readonly string[];
  /** For an edit or a write: the change, shown as a diff. */
  readonly edit?: PermissionEdit;
  /** For a command: what runs, and where. */
  readonly command?: PermissionCommand;
  /** The rule "allow always" writes; without it, "allow always" is not offered. */
  readonly allowAlways?: PermissionRuleScope;
  /** The rule "reject always" writes; without it, "reject always" is not offered. */
  readonly rejectAlways?: PermissionRuleScope;
  /** The agent that asks; UIs use it to route the request. */
  readonly agent?: Agent;
  /** Withdraws the request when aborted: the call is denied. */
  readonly signal?: AbortSignal;
  /** An opt-in time limit in milliseconds; past it the call is denied with `ASK_TIMEOUT`. */
  readonly timeoutMs?: number;
}

/** What a UI returns for an approval: the person's choice, one of those the request offers. */
export interface PermissionAnswer {
  readonly choice: PermissionChoice;
}

/**
 * How tool calls that act are decided: asked (`ask`), never run (`read-only`), or asked except
 * commands that stay in the OS sandbox, which run unasked unless a rule denies them
 * (`allow-sandboxed`). The one mode type of the policy (`dsh-tools`) and of the programs'
 * `--permission-mode` flag (`dsh-agent/command-line`).
 */
export type PermissionMode = 'ask' | 'read-only' | 'allow-sandboxed';

/** Who decided a tool call. */
export type PermissionDecider =
  /** The person chose; for an "always" choice, `rule` is the rule it wrote. */
  | { readonly kind: 'person'; readonly choice: PermissionChoice; readonly rule?: string }
  /** A rule decided without asking; `source` says where it lives (a rules file, `--allow`). */
  | { readonly kind: 'rule'; readonly rule: string; readonly source: string }
  /** The policy decided without asking; `reason` says why ("reads inside the workspace"). */
  | { readonly kind: 'policy'; readonly reason: string }
  /**
   * Nobody answered: no UI, no human (the input ended), the request was withdrawn, its time
   * limit passed, or the person dismissed it. `code` says which; the call is always denied.
   */
  | {
      readonly kind: 'unanswered';
      readonly code: UserInteractionErrorCode;
      readonly message: string;
    };

/** How an approval ended: whether the call may run, and who decided. Nobody answering denies. */
export type PermissionOutcome =
  | {
      readonly allowed: true;
      readonly decidedBy: Exclude<PermissionDecider, { readonly kind: 'unanswered' }>;
    }
  | { readonly allowed: false; readonly decidedBy: PermissionDecider };

/** The choices `request` offers: "always" only where it names the rule it would write. */
export function offeredChoices(request: PermissionRequest): readonly PermissionChoice[] {
  return PERMISSION_CHOICES.filter(
    (choice) =>
      (choice !== 'allow_always' || request.allowAlways !== undefined) &&
      (choice !== 'reject_always' || request.rejectAlways !== undefined),
  );
}
