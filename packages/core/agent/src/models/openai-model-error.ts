import type * as OpenAIModule from 'openai';
import { formatDuration } from '../text/format-duration.js';
import { deepSeekModelHint, isUnknownModelRefusal } from './deepseek.js';
import { ModelError, type ModelErrorCode } from './model-error.js';
import {
  type NetworkTarget,
  networkAdvice,
  networkFailure,
  networkFailurePasses,
  networkReason,
} from './network-failure.js';
import { MAX_RETRY_AFTER_MS, type RetryKind, retryAfterMs } from './retry-policy.js';
import { StreamEventTooLargeError } from './whole-events.js';

/** What an error message may say about the request: never the key itself. */
export interface ModelTarget extends NetworkTarget {
  /** The base URL as people may see it (no user name or password). */
  readonly server: string;
  readonly model: string;
  readonly apiKey: string;
  /** How long the server may stay silent, in milliseconds. */
  readonly timeoutMs: number;
  /** Whether the server speaks DeepSeek's dialect (its messages can name DeepSeek's models). */
  readonly deepSeek: boolean;
}

/** One failed attempt of a request: what happened, what to do, and whether to try again. */
export interface AttemptFailure {
  readonly code: ModelErrorCode;
  /** What happened, as one sentence: `The model server at … failed (HTTP 503: busy).` */
  readonly fact: string;
  /** What the person can do once no attempt is left, or `''`. */
  readonly advice: string;
  readonly retry: RetryKind;
  /** What the server asked to wait before the next request, in milliseconds. */
  readonly askedMs?: number;
  readonly status?: number;
  readonly cause?: unknown;
}

/** The base URL without credentials, for messages. */
export function displayServer(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return baseURL;
  }
}

/** The server's own words, shortened and with the key removed (servers sometimes echo it). */
function serverDetail(error: OpenAIModule.APIError, target: ModelTarget): string {
  const body = error.error as { message?: unknown } | string | undefined;
  let text =
    typeof body === 'string'
      ? body
      : typeof body?.message === 'string'
        ? body.message
        : error.message.replace(/^\d{3}\s*/, '');
  if (target.apiKey.length >= 4) text = text.split(target.apiKey).join('***');
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '' || text.startsWith('status code (no body)')) return '';
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** An HTTP status is worth another attempt when the server was busy or limiting, or timed out. */
function statusRetry(status: number): RetryKind {
  return status === 408 || status === 429 || (status >= 500 && status !== 501)
    ? 'after-pause'
    : 'never';
}

function statusFailure(
  error: OpenAIModule.APIError,
  status: number,
  target: ModelTarget,
): AttemptFailure {
  const { server, model } = target;
  const http = `HTTP ${status}${serverDetail(error, target)}`;
  const asked = retryAfterMs(error.headers);
  const base = {
    status,
    cause: error,
    retry: statusRetry(status),
    ...(asked !== undefined && { askedMs: asked }),
  };
  if (status === 401 || status === 403) {
    return {
      ...base,
      code: 'MODEL_AUTH',
      fact: `The model server at ${server} rejected the API key (${http}).`,
      advice: 'Check that the key is set and valid for this server.',
    };
  }
  if (status === 429) {
    return {
      ...base,
      code: 'MODEL_RATE_LIMITED',
      fact: `The model server at ${server} is limiting requests (${http}).`,
      advice: 'Wait a moment, then send your message again.',
    };
  }
  if (status === 404 || ((status === 400 || status === 422) && isUnknownModelRefusal(http))) {
    return {
      ...base,
      code: 'MODEL_NOT_FOUND',
      fact: `The model server at ${server} has no model "${model}"${status === 404 ? ' or no chat completions endpoint' : ''} (${http}).`,
      advice: target.deepSeek
        ? deepSeekModelHint(model)
        : 'Check the model name and the base URL (OpenAI-compatible servers usually end in /v1).',
    };
  }
  if (status >= 500) {
    return {
      ...base,
      code: 'MODEL_UNAVAILABLE',
      fact: `The model server at ${server} failed (${http}).`,
      advice: 'It may be down or overloaded: try again in a moment.',
    };
  }
  return {
    ...base,
    code: 'MODEL_REQUEST_REJECTED',
    fact: `The model server at ${server} rejected the request (${http}).`,
    advice: '',
  };
}

/**
 * The server sent nothing for the whole time limit: before anything of the answer streamed
 * (another attempt may do better), or in the middle of it (the answer is lost).
 */
export function silenceFailure(target: ModelTarget, midResponse: boolean): AttemptFailure {
  const { server } = target;
  const limit = formatDuration(target.timeoutMs);
  return midResponse
    ? {
        code: 'MODEL_TIMEOUT',
        fact: `The model server at ${server} stopped in the middle of its answer: nothing for ${limit}.`,
        advice: 'Try again, or allow it more time.',
        retry: 'never',
      }
    : {
        code: 'MODEL_TIMEOUT',
        fact: `The model server at ${server} sent nothing for ${limit}.`,
        advice: 'It may be down or overloaded: try again later, or allow it more time.',
        retry: 'at-once',
      };
}

/** A failure of the request itself (before any response data). */
export function requestFailure(
  error: unknown,
  target: ModelTarget,
  openai: typeof OpenAIModule,
): AttemptFailure {
  const { server } = target;
  // The client's own time limit is the same as the silence limit.
  if (error instanceof openai.APIConnectionTimeoutError) return silenceFailure(target, false);
  if (error instanceof openai.APIConnectionError) {
    const failure = networkFailure(error);
    return {
      code: 'MODEL_CONNECTION',
      fact: `Cannot reach the model server at ${server} (${networkReason(failure, server)}).`,
      advice: networkAdvice(failure, target),
      retry: networkFailurePasses(failure) ? 'after-pause' : 'never',
      cause: error,
    };
  }
  if (error instanceof openai.APIError && typeof error.status === 'number') {
    return statusFailure(error, error.status, target);
  }
  return streamFailure(error, target, openai);
}

/** A failure while reading the streamed response. */
export function streamFailure(
  error: unknown,
  target: ModelTarget,
  openai: typeof OpenAIModule,
): AttemptFailure {
  const { server } = target;
  if (StreamEventTooLargeError.isInstance(error)) {
    return {
      code: 'MODEL_BAD_RESPONSE',
      fact: `The model server at ${server} sent a stream event larger than ${error.limitBytes / 1024 / 1024} MiB, the most this client takes.`,
      advice:
        'Check that the base URL points to an OpenAI-compatible server, and ask for a shorter answer.',
      retry: 'never',
      cause: error,
    };
  }
  if (error instanceof SyntaxError) {
    return {
      code: 'MODEL_BAD_RESPONSE',
      fact: `The model server at ${server} sent data that is not valid JSON.`,
      advice: 'Check that the base URL points to an OpenAI-compatible server.',
      retry: 'never',
      cause: error,
    };
  }
  if (error instanceof openai.APIError) {
    // An error event inside a successful (HTTP 200) stream, such as an overloaded upstream.
    return {
      code: 'MODEL_UNAVAILABLE',
      fact: `The model server at ${server} reported an error mid-response${serverDetail(error, target)}.`,
      advice: 'Try again.',
      retry: 'after-pause',
      cause: error,
    };
  }
  return {
    code: 'MODEL_CONNECTION',
    fact: `The connection to the model server at ${server} was lost mid-response (${networkReason(networkFailure(error), server)}).`,
    advice: 'Try again.',
    retry: 'after-pause',
    cause: error,
  };
}

/** A response that is not a chat-completions stream, or one that ended too soon. */
export function badResponseFailure(target: ModelTarget, receivedNothing: boolean): AttemptFailure {
  const { server } = target;
  return receivedNothing
    ? {
        code: 'MODEL_BAD_RESPONSE',
        fact: `The model server at ${server} sent no chat-completions data.`,
        advice:
          'Check that the base URL points to an OpenAI-compatible server (usually ending in /v1).',
        retry: 'never',
      }
    : {
        code: 'MODEL_BAD_RESPONSE',
        fact: `The model server at ${server} ended its response before the model finished.`,
        advice: 'Try again.',
        retry: 'never',
      };
}

/**
 * The error a request fails with, after `attempts` attempts that took `elapsedMs` in all:
 * the last failure, how many attempts and how long they took when there was more than one,
 * and what to do.
 */
export function failureError(failure: AttemptFailure, attempts = 1, elapsedMs = 0): ModelError {
  const fact =
    attempts > 1
      ? `${failure.fact.replace(/\.$/, '')}; ${attempts} attempts, ${formatDuration(elapsedMs)} in all.`
      : failure.fact;
  const { askedMs } = failure;
  const advice =
    askedMs !== undefined && askedMs > MAX_RETRY_AFTER_MS
      ? `It asks to wait ${formatDuration(askedMs)} before the next request, longer than the ${formatDuration(MAX_RETRY_AFTER_MS)} waited for on its own: wait, then send your message again.`
      : failure.advice;
  return new ModelError(advice === '' ? fact : `${fact} ${advice}`, failure.code, {
    ...(failure.cause !== undefined && { cause: failure.cause }),
    ...(failure.status !== undefined && { status: failure.status }),
  });
}
