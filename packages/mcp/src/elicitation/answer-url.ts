import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Agent } from 'dsh-user-interaction';
import type { ElicitationInteraction, ElicitationRecord } from './answer-elicitations.js';
import { failedAsk, REASON_KEY } from './failed-ask.js';
import { checkedUrl, urlConsent, urlNotes } from './url-consent.js';

/**
 * A server's URL-mode elicitation, handed to a UI that asks it in its own way (an ACP editor's
 * URL elicitation): the address is checked already (`https:` or `http:`), and the message names
 * the server and says the domain and any warning.
 */
export interface UrlElicitationRequest {
  readonly serverName: string;
  /** `MCP server <name> asks you to open a web page.`, its message, the domain, the warnings. */
  readonly message: string;
  /** The full address as the server sent it. */
  readonly url: string;
  /** The calling agent of the tool call that asked, for routing (session and tool call). */
  readonly agent?: Agent;
  /** Aborts when the question is withdrawn (the call ended, the server cancelled it). */
  readonly signal: AbortSignal;
}

/**
 * Asks a URL elicitation in a UI's own way; resolves with the person's action, or rejects with a
 * `UserInteractionError` (`UNSUPPORTED` when the UI cannot: the server gets a decline with the reason).
 */
export type AskUrl = (request: UrlElicitationRequest) => Promise<'accept' | 'decline' | 'cancel'>;

/** What answering a URL elicitation needs from `answerElicitations`. */
export interface UrlAnswerContext {
  readonly serverName: string;
  readonly interaction: ElicitationInteraction;
  readonly asked: {
    readonly signal: AbortSignal;
    readonly agent?: Agent;
    readonly timeoutMs?: number;
  };
  readonly askUrl?: AskUrl | undefined;
  readonly openUrl?: ((url: string) => void | Promise<void>) | undefined;
  readonly record: (record: ElicitationRecord) => void;
}

/** The MCP result of a failed ask, with its reason in `_meta` when there is one. */
function failedResult(failed: { action: 'decline' | 'cancel'; reason?: string }): ElicitResult {
  return {
    action: failed.action,
    ...(failed.reason !== undefined && { _meta: { [REASON_KEY]: failed.reason } }),
  };
}

/**
 * Answers a URL-mode elicitation: an address that is not a web address is declined unasked;
 * with `askUrl` the UI asks it itself (an editor opens the page after consent); otherwise the
 * person is asked a consent question and `openUrl` opens the page after consent. Never fetched here.
 */
export async function answerUrl(
  params: Extract<ElicitRequest['params'], { mode: 'url' }>,
  context: UrlAnswerContext,
): Promise<ElicitResult> {
  const { serverName, asked } = context;
  const base = { serverName, message: params.message, mode: 'url', url: params.url } as const;
  const url = checkedUrl(params.url);
  if (!(url instanceof URL)) {
    context.record({ ...base, action: 'decline', reason: url.reason });
    return { action: 'decline', _meta: { [REASON_KEY]: url.reason } };
  }
  if (context.askUrl !== undefined) {
    try {
      const message = [
        `MCP server ${serverName} asks you to open a web page.`,
        ...urlNotes(url, params.message),
      ].join('\n');
      const action = await context.askUrl({ serverName, message, url: params.url, ...asked });
      context.record({ ...base, action });
      return { action };
    } catch (error) {
      const failed = failedAsk(error);
      context.record({ ...base, ...failed });
      return failedResult(failed);
    }
  }
  const consent = urlConsent(params.url, params.message, serverName, context.openUrl !== undefined);
  if ('reason' in consent) return { action: 'decline' }; // checked above
  try {
    const { option } = await context.interaction.ask({ ...consent.question, ...asked });
    if (option?.value !== 'open') {
      context.record({ ...base, action: 'decline' });
      return { action: 'decline' };
    }
  } catch (error) {
    const failed = failedAsk(error);
    context.record({ ...base, ...failed });
    return failedResult(failed);
  }
  context.record({ ...base, action: 'accept' });
  // Opened only after consent, by the person's browser: never fetched here.
  await Promise.resolve(context.openUrl?.(consent.url.href)).catch(() => {});
  return { action: 'accept' };
}
