import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askTimeoutError } from '../src/errors/ask-errors.js';
import {
  inputClosedError,
  isUserInteractionError,
  PendingQuestions,
  UserInteractionError,
} from '../src/index.js';
import { createPendingQuestion } from '../src/service/pending-question.js';

afterEach(() => {
  vi.useRealTimers();
});

async function failureOf(promise: Promise<unknown>): Promise<UserInteractionError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isUserInteractionError(error), String(error)).toBe(true);
  return error as UserInteractionError;
}

describe('createPendingQuestion', () => {
  it('settles once: the first of resolve, reject and withdraw wins', async () => {
    const onSettle = vi.fn();
    const question = createPendingQuestion<string>({ onSettle });
    expect(question.settled).toBe(false);
    expect(question.resolve('yes')).toBe(true);
    expect(question.reject(new Error('late'))).toBe(false);
    expect(question.withdraw(inputClosedError('gone'))).toBe(false);
    expect(question.resolve('no')).toBe(false);
    await expect(question.promise).resolves.toBe('yes');
    expect(question.settled).toBe(true);
    expect(onSettle).toHaveBeenCalledTimes(1);
    // Answered, not withdrawn: the question's signal stays as it was.
    expect(question.signal.aborted).toBe(false);
  });

  it('rejects with UserInteractionError only: anything else a UI fails with is ASK_FAILED', async () => {
    const cause = new TypeError('the UI broke');
    const question = createPendingQuestion();
    question.reject(cause);
    const error = await failureOf(question.promise);
    expect(error.code).toBe('ASK_FAILED');
    expect(error.cause).toBe(cause);
    expect(error.message).not.toContain('the UI broke');
    expect(question.signal.aborted).toBe(false);
  });

  it('is withdrawn by its signal: ASK_ABORTED with the reason, its own signal aborted, no listener left', async () => {
    const controller = new AbortController();
    const question = createPendingQuestion({ signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('turn cancelled');
    controller.abort(reason);
    const error = await failureOf(question.promise);
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.cause).toBe(reason);
    expect(question.signal.aborted).toBe(true);
    expect(question.signal.reason).toBe(error);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('is ASK_ABORTED whatever the reason, which stays in `cause` (an outer time-out, say)', async () => {
    const timeout = askTimeoutError(5_000);
    const question = createPendingQuestion({ signal: AbortSignal.abort(timeout) });
    expect(question.settled).toBe(true);
    const error = await failureOf(question.promise);
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.cause).toBe(timeout);
    expect(question.signal.reason).toBe(error);
  });

  it('is withdrawn with ASK_TIMEOUT past its time limit, and leaves no timer when settled first', async () => {
    vi.useFakeTimers();
    const late = createPendingQuestion({ timeoutMs: 1_000 });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    const error = await failureOf(late.promise);
    expect(error.code).toBe('ASK_TIMEOUT');
    expect(late.signal.reason).toBe(error);
    const answered = createPendingQuestion<string>({ timeoutMs: 1_000 });
    answered.resolve('in time');
    expect(vi.getTimerCount()).toBe(0);
    await expect(answered.promise).resolves.toBe('in time');
  });

  it('never throws for a signal-like object that refuses a listener: INVALID_REQUEST', async () => {
    const signal = {
      aborted: false,
      addEventListener() {
        throw new Error('no');
      },
      removeEventListener() {},
    } as unknown as AbortSignal;
    const question = createPendingQuestion({ signal });
    const error = await failureOf(question.promise);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.field).toBe('signal');
  });
});

describe('PendingQuestions', () => {
  it('holds questions until they settle, however they settle', async () => {
    const questions = new PendingQuestions<string>();
    const controller = new AbortController();
    const answered = questions.open();
    const withdrawn = questions.open({ signal: controller.signal });
    const failed = questions.open();
    expect(questions.size).toBe(3);
    answered.resolve('a');
    controller.abort();
    failed.reject(new Error('x'));
    // Settling removes a question at once, not a tick later.
    expect(questions.size).toBe(0);
    await expect(answered.promise).resolves.toBe('a');
    expect((await failureOf(withdrawn.promise)).code).toBe('ASK_ABORTED');
    expect((await failureOf(failed.promise)).code).toBe('ASK_FAILED');
  });

  it('withdrawAll ends the open questions; close also ends every later one at once', async () => {
    const questions = new PendingQuestions<string>();
    const first = questions.open();
    questions.withdrawAll(inputClosedError('the test says so'));
    const firstError = await failureOf(first.promise);
    expect(firstError.code).toBe('INPUT_CLOSED');
    expect(first.signal.aborted).toBe(true);
    // Not closed: a later question waits as usual.
    const second = questions.open();
    expect(second.settled).toBe(false);
    const closing = inputClosedError('the input ended');
    questions.close(closing);
    questions.close(inputClosedError('twice'));
    expect(questions.closed).toBe(closing);
    const third = questions.open();
    expect(third.settled).toBe(true);
    for (const question of [second, third]) {
      const error = await failureOf(question.promise);
      expect(error.message).toBe('Nobody can answer the question: the input ended.');
      expect(error.cause).toBe(closing);
    }
    expect(questions.size).toBe(0);
  });

  it('opens a question whose signal already aborted as settled, never holding it', async () => {
    const questions = new PendingQuestions<string>();
    const question = questions.open({ signal: AbortSignal.abort() });
    expect(question.settled).toBe(true);
    expect(questions.size).toBe(0);
    expect((await failureOf(question.promise)).code).toBe('ASK_ABORTED');
  });

  it('gives each withdrawn question its own error', async () => {
    const questions = new PendingQuestions<string>();
    const a = questions.open();
    const b = questions.open();
    questions.withdrawAll(new UserInteractionError('Gone.', 'INPUT_CLOSED'));
    const [errorA, errorB] = await Promise.all([failureOf(a.promise), failureOf(b.promise)]);
    expect(errorA).not.toBe(errorB);
    expect(errorA.cause).toBe(errorB.cause);
  });
});

describe('onWithdraw', () => {
  it('runs once with the withdrawal, before the signal aborts, and never for an answer or a failure', async () => {
    const seen: string[] = [];
    const onWithdraw = vi.fn((error: UserInteractionError) => {
      seen.push(`withdraw ${error.code} signal read: ${String(read)}`);
    });
    let read = false;
    const question = createPendingQuestion<string>({ onWithdraw });
    question.signal.addEventListener('abort', () => seen.push('abort'));
    read = true;
    const error = inputClosedError('gone');
    expect(question.withdraw(error)).toBe(true);
    expect(question.withdraw(inputClosedError('again'))).toBe(false);
    expect(onWithdraw).toHaveBeenCalledTimes(1);
    expect(onWithdraw).toHaveBeenCalledWith(error);
    expect(seen).toEqual(['withdraw INPUT_CLOSED signal read: true', 'abort']);
    expect(await failureOf(question.promise)).toBe(error);

    const answered = createPendingQuestion<string>({ onWithdraw });
    answered.resolve('yes');
    answered.withdraw(inputClosedError('late'));
    const failed = createPendingQuestion<string>({ onWithdraw });
    failed.reject(new Error('the UI broke'));
    await failed.promise.catch(() => undefined);
    expect(onWithdraw).toHaveBeenCalledTimes(1);
  });

  it('runs for a caller signal and a time limit too; one that throws does not stop the withdrawal', async () => {
    vi.useFakeTimers();
    const timed = createPendingQuestion<string>({
      timeoutMs: 10,
      onWithdraw: () => {
        throw new Error('the UI could not clear its screen');
      },
    });
    vi.advanceTimersByTime(10);
    expect(timed.settled).toBe(true);
    expect((await failureOf(timed.promise)).code).toBe('ASK_TIMEOUT');
    expect(timed.signal.aborted).toBe(true);

    const caller = new AbortController();
    const onWithdraw = vi.fn();
    const asked = createPendingQuestion<string>({ signal: caller.signal, onWithdraw });
    caller.abort('stop');
    expect(onWithdraw).toHaveBeenCalledTimes(1);
    expect((await failureOf(asked.promise)).code).toBe('ASK_ABORTED');
  });

  it('is passed through by PendingQuestions, closing included', async () => {
    const questions = new PendingQuestions<string>();
    const onWithdraw = vi.fn();
    const question = questions.open({ onWithdraw });
    questions.close(inputClosedError('closed'));
    expect(onWithdraw).toHaveBeenCalledTimes(1);
    expect((await failureOf(question.promise)).code).toBe('INPUT_CLOSED');
  });
});
