import type { AskUserQuestionAnswer, AskUserQuestionRequest } from './ask-user-question.js';
import type { AskUserQuestionsAnswer, AskUserQuestionsRequest } from './ask-user-questions.js';
import type { PermissionAnswer, PermissionRequest } from './permission-request.js';

/** What a UI can show. A provider that leaves this out can show everything. */
export interface UserInteractionCapabilities {
  /** Questions without options, answered with typed text. */
  readonly freeForm: boolean;
  /** A typed answer offered next to the options (unless the question sets `allowCustom: false`). */
  readonly customAnswer: boolean;
  /**
   * Questions that take several options (`multiSelect`, in `askAll`). Absent means yes for a UI
   * that implements `askAll`; a UI without it is asked one question at a time, through `ask`, and
   * a multi-select fails with `UNSUPPORTED` whatever this says.
   */
  readonly multiSelect?: boolean;
  /**
   * Approvals of tool calls (`requestPermission`). Absent means yes for a UI that implements
   * `requestPermission`; `false` says it cannot ask right now. A UI without the method never
   * gets an approval, and an approval never travels as a question.
   */
  readonly permissions?: boolean;
  /**
   * Questions at all (`ask`, `askAll`). Absent means yes; `false` says this UI cannot put a
   * question to the person (an editor without forms): its asks fail with `UNSUPPORTED`, and the
   * tool's description tells the model to ask in its reply text instead.
   */
  readonly questions?: boolean;
}

/** What a UI that shows every kind of question can show: what a provider without `capabilities` means. */
export const FULL_CAPABILITIES: UserInteractionCapabilities = Object.freeze({
  freeForm: true,
  customAnswer: true,
});

/** A UI that can put a question in front of a person: a terminal, an editor, a test. */
export interface UserInteractionProvider {
  /**
   * Shows the question and settles with the person's answer, or rejects with a
   * `UserInteractionError`. The request it receives has already been validated.
   */
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
  /**
   * Shows several questions together and settles with every answer, or rejects with a
   * `UserInteractionError` for the whole set. The request has already been validated. Optional:
   * without it, the service asks the questions one at a time through `ask`.
   */
  askAll?(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  /**
   * Asks the person to approve one tool call and settles with their choice (one the request
   * offers), or rejects with a `UserInteractionError`. The request has already been validated.
   * Optional: a UI opts in to approvals by implementing it.
   */
  requestPermission?(request: PermissionRequest): Promise<PermissionAnswer>;
  /** What this UI can show right now; read at every ask, so it may change over time. */
  readonly capabilities?: UserInteractionCapabilities;
}
