import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Agent, UserInteraction } from 'dsh-user-interaction';
import { McpError } from '../mcp-error.js';
import { type AskUrl, answerUrl } from './answer-url.js';
import { askForm } from './ask-form.js';
import { failedAsk, REASON_KEY } from './failed-ask.js';
import { readFormFields } from './form-field.js';

/** What is kept of one elicitation, for a log or a transcript: never a sensitive field's value. */
export interface ElicitationRecord {
  readonly serverName: string;
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly action: 'accept' | 'decline' | 'cancel';
  /** Why it was declined or cancelled without the person choosing so (`UNSUPPORTED: ...`). */
  readonly reason?: string;
  /** The answers sent, with every sensitive field's value replaced by `[hidden]`. */
  readonly content?: Readonly<Record<string, unknown>>;
  /** For URL mode: the address the person was shown. */
  readonly url?: string;
}

/** How a client's elicitations are answered. */
export interface AnswerElicitationsOptions {
  /** The server's name as the person knows it (from their configuration), shown in every question. */
  readonly serverName: string;
  /** Ask the person to review a form's answers before they are sent (default `true`). */
  readonly review?: boolean;
  /** How many times an answer that breaks the form's rules is asked again before declining (default 3). */
  readonly attempts?: number;
  /** Opens a consented URL in the person's browser; without it, the person is told to open it. */
  readonly openUrl?: (url: string) => void | Promise<void>;
  /**
   * Asks a URL elicitation in the UI's own way instead of the consent question (an ACP editor's
   * URL elicitation, which opens the page itself after consent): it gets the checked address and
   * a message naming the server. A rejection with `UNSUPPORTED` declines, with the reason.
   */
  readonly askUrl?: AskUrl;
  /**
   * The tool call a question belongs to, when it is known: its agent routes the question (to the
   * right session and tool call), and its signal withdraws the question when the call ends. A 2025
   * server does not always withdraw its question when the call that asked is cancelled.
   */
  readonly callContext?: () => ElicitationCallContext | undefined;
  /** Told of each elicitation once it settles (sensitive values hidden). */
  readonly onRecord?: (record: ElicitationRecord) => void;
  /** Told when a question starts or stops waiting for the person (to pause a call's idle timer). */
  readonly onWaiting?: (waiting: boolean) => void;
  /**
   * The time the person has for each of a server's questions (a program's `--timeout`), counted
   * down where the UI shows a countdown; when it passes, the server gets `cancel`, recorded with
   * `ASK_TIMEOUT`. Default: no limit.
   */
  readonly timeoutMs?: number;
}

/** The tool call an elicitation is asked for. */
export interface ElicitationCallContext {
  readonly agent?: Agent;
  readonly signal?: AbortSignal;
}

/** The registration `answerElicitations` returns: dispose it to stop answering. */
export interface ElicitationAnswering extends Disposable {
  /** How many elicitations are waiting for the person now. */
  readonly waiting: number;
  /**
   * Answers one elicitation as the handler does, for a caller that drives 2026-07-28 rounds
   * itself (`allowInputRequired`); `call`: the tool call it belongs to, when known.
   */
  answer(
    params: ElicitRequest['params'],
    signal: AbortSignal,
    call?: ElicitationCallContext,
  ): Promise<ElicitResult>;
  dispose(): void;
}

/** The question service, as much of it as elicitation needs. */
export type ElicitationInteraction = Pick<UserInteraction, 'ask' | 'askAll'>;

function redacted(
  content: Readonly<Record<string, unknown>>,
  sensitive: ReadonlySet<string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(content).map(([name, value]) => [
      name,
      sensitive.has(name) ? '[hidden]' : value,
    ]),
  );
}

/**
 * Answers every elicitation of an MCP client (`elicitation/create`, on a 2025 connection as a
 * request, on a 2026-07-28 one inside `input_required` results) through the active dsh question
 * UI. Call it before `client.connect()`: it declares the form and URL elicitation capabilities,
 * which are fixed at connect (`MCP_CLIENT_CONNECTED` otherwise).
 */
export function answerElicitations(
  client: Client,
  interaction: ElicitationInteraction,
  options: AnswerElicitationsOptions,
): ElicitationAnswering {
  try {
    client.registerCapabilities({ elicitation: { form: {}, url: {} } });
  } catch (error) {
    throw new McpError(
      'answerElicitations must be called before the client connects',
      'MCP_CLIENT_CONNECTED',
      { cause: error },
    );
  }
  let waiting = 0;
  let disposed = false;
  const record = (entry: ElicitationRecord) => options.onRecord?.(entry);

  async function answer(
    params: ElicitRequest['params'],
    signal: AbortSignal,
    known?: ElicitationCallContext,
  ): Promise<ElicitResult> {
    const call = known ?? options.callContext?.();
    const agent = call?.agent;
    const withdrawn = call?.signal === undefined ? signal : AbortSignal.any([signal, call.signal]);
    const asked = {
      signal: withdrawn,
      ...(agent !== undefined && { agent }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    };
    const base = { serverName: options.serverName, message: params.message };
    if (params.mode === 'url') {
      return answerUrl(params, {
        serverName: options.serverName,
        interaction,
        asked,
        askUrl: options.askUrl,
        openUrl: options.openUrl,
        record,
      });
    }
    const fields = readFormFields(params.requestedSchema);
    if (typeof fields === 'string') {
      record({ ...base, mode: 'form', action: 'decline', reason: fields });
      return { action: 'decline', _meta: { [REASON_KEY]: `this form cannot be asked: ${fields}` } };
    }
    const sensitive = new Set(fields.filter((field) => field.sensitive).map((field) => field.name));
    try {
      const outcome = await askForm(interaction, params.message, fields, {
        serverName: options.serverName,
        ...asked,
        ...(options.review !== undefined && { review: options.review }),
        ...(options.attempts !== undefined && { attempts: options.attempts }),
      });
      if (outcome.action === 'decline') {
        record({ ...base, mode: 'form', action: 'decline', reason: outcome.reason });
        return { action: 'decline', _meta: { [REASON_KEY]: outcome.reason } };
      }
      record({
        ...base,
        mode: 'form',
        action: 'accept',
        content: redacted(outcome.content, sensitive),
      });
      return { action: 'accept', content: outcome.content as ElicitResult['content'] };
    } catch (error) {
      const failed = failedAsk(error);
      record({ ...base, mode: 'form', ...failed });
      return {
        action: failed.action,
        ...(failed.reason !== undefined && { _meta: { [REASON_KEY]: failed.reason } }),
      };
    }
  }

  /** `answer`, counted as waiting for the person meanwhile. */
  async function waitingAnswer(
    params: ElicitRequest['params'],
    signal: AbortSignal,
    call?: ElicitationCallContext,
  ): Promise<ElicitResult> {
    if (disposed) return { action: 'decline', _meta: { [REASON_KEY]: 'no longer answering' } };
    waiting++;
    if (waiting === 1) options.onWaiting?.(true);
    try {
      return await answer(params, signal, call);
    } finally {
      waiting--;
      if (waiting === 0) options.onWaiting?.(false);
    }
  }

  client.setRequestHandler('elicitation/create', (request, context) =>
    waitingAnswer(request.params, context.mcpReq.signal),
  );

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    client.removeRequestHandler('elicitation/create');
  };
  return {
    get waiting() {
      return waiting;
    },
    answer: waitingAnswer,
    dispose,
    [Symbol.dispose]: dispose,
  };
}
