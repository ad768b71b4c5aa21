import { isBlankText } from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import { truncateText } from '../../text/text-width.js';
import { answerTooLongMessage, LONGEST_ANSWER } from '../answer-limit.js';
import type { QuestionView } from '../question-view.js';

/** What a line typed in line mode means. */
export type LineAnswer =
  | { readonly kind: 'option'; readonly index: number }
  | { readonly kind: 'text'; readonly text: string }
  /** Several options of a question that takes several, and maybe a typed answer with them. */
  | { readonly kind: 'options'; readonly indexes: readonly number[]; readonly text?: string }
  | { readonly kind: 'retry'; readonly message: string };

function range(view: QuestionView): string {
  return view.optionCount === 1 ? 'the number 1' : `a number from 1 to ${view.optionCount}`;
}

/** An example of several numbers, all of them options of the question: `, such as 1,3`. */
function severalExample(view: QuestionView): string {
  if (view.optionCount < 2) return '';
  return `, such as ${view.optionCount === 2 ? '1,2' : '1,3'}`;
}

/**
 * The prompt under a line-mode question, saying what it accepts; on a terminal, `endKey` says
 * what Ctrl+D does there (`decline`, `decline all`), since nothing else shows how to decline.
 */
export function linePrompt(view: QuestionView, multiSelect = false, endKey?: string): string {
  const hints = [
    ...(view.optionCount > 0 && view.recommended >= 0 ? [`Enter: ${view.recommended + 1}`] : []),
    ...(endKey === undefined ? [] : [`Ctrl+D: ${endKey}`]),
  ];
  const fallback = hints.length === 0 ? '' : ` (${hints.join('; ')})`;
  if (view.optionCount === 0) return `Answer${fallback}: `;
  const numbers = view.optionCount === 1 ? '1' : `1-${view.optionCount}`;
  if (multiSelect) {
    const custom = view.allowCustom ? ', and/or =your own answer' : '';
    return `Choose any of ${numbers}${severalExample(view)}${custom}${fallback}: `;
  }
  const custom = view.allowCustom ? ' or type your own answer' : '';
  return `Choose ${numbers}${custom}${fallback}: `;
}

function matchLabel(view: QuestionView, text: string): number {
  const wanted = text.toLowerCase();
  return view.options.findIndex((option) => option.label.trim().toLowerCase() === wanted);
}

/** A typed answer, or a retry when it is longer than an answer may be: it is never cut. */
function typedAnswer(text: string): LineAnswer {
  if (text.length <= LONGEST_ANSWER) return { kind: 'text', text };
  return { kind: 'retry', message: `${answerTooLongMessage(text.length)} Type a shorter one.` };
}

/** The escape that makes any text, a number included, a typed answer: `=5432`. */
const LITERAL = '=';

/**
 * Reads one line of line mode: a number in range chooses by position, an empty line takes the
 * recommended option, an option's exact label chooses it (numeric labels too, such as
 * `8080`), other text is a custom answer where allowed, and `=` before any text makes it a
 * custom answer as typed (`=5432`). Anything else asks again, with a message saying why; a
 * bare number is never taken as a custom answer.
 */
export function parseLineAnswer(view: QuestionView, line: string): LineAnswer {
  const text = line.trim();
  if (view.optionCount === 0) {
    return isBlankText(text)
      ? { kind: 'retry', message: 'An answer is needed: type it and press Enter.' }
      : typedAnswer(text);
  }
  if (isBlankText(text)) {
    if (view.recommended >= 0) return { kind: 'option', index: view.recommended };
    const custom = view.allowCustom ? ', or type your own answer' : '';
    return { kind: 'retry', message: `Type ${range(view)}${custom}.` };
  }
  const isNumber = /^[0-9]+$/.test(text);
  if (isNumber) {
    const number = Number(text);
    if (number >= 1 && number <= view.optionCount) return { kind: 'option', index: number - 1 };
  }
  const index = matchLabel(view, text);
  if (index >= 0) return { kind: 'option', index };
  if (view.allowCustom && text.startsWith(LITERAL)) {
    const own = text.slice(LITERAL.length).trim();
    return isBlankText(own)
      ? { kind: 'retry', message: `Type your answer after ${LITERAL}, such as ${LITERAL}5432.` }
      : typedAnswer(own);
  }
  if (isNumber) {
    const shown = truncateText(text, 12);
    const literal = view.allowCustom ? `, or ${LITERAL}${shown} to answer ${shown} itself` : '';
    return {
      kind: 'retry',
      message: `There is no option ${shown}: type ${range(view)}${literal}.`,
    };
  }
  if (view.allowCustom) return typedAnswer(text);
  const shown = truncateText(neutralizeText(text), 40);
  return {
    kind: 'retry',
    message: `"${shown}" is not one of the options: type ${range(view)}.`,
  };
}

// Numbers separated by commas or spaces, then maybe a typed answer after `=`: `1,3`, `1 3 =more`.
const NUMBERS = /^([0-9]+(?:\s*[,\s]\s*[0-9]+)*)(?:\s*[,\s]\s*=(.*))?$/;

/**
 * Reads one line for a question that takes several options: numbers separated by commas or
 * spaces (`1,3`, `1 3`), an option's exact label, `=text` for a typed answer, or numbers and
 * then `=text` for both. An empty line takes the recommended option; a wrong line asks again.
 */
export function parseMultiLineAnswer(view: QuestionView, line: string): LineAnswer {
  const text = line.trim();
  const custom = view.allowCustom ? `, or =your own answer` : '';
  if (isBlankText(text)) {
    if (view.recommended >= 0) return { kind: 'options', indexes: [view.recommended] };
    const numbers =
      view.optionCount === 1 ? 'the number 1' : `numbers from 1 to ${view.optionCount}`;
    return {
      kind: 'retry',
      message: `Type one or more ${numbers}${severalExample(view)}${custom}.`,
    };
  }
  const numbered = NUMBERS.exec(text);
  if (numbered !== null) {
    const indexes = new Set<number>();
    for (const number of (numbered[1] as string).split(/[\s,]+/)) {
      const index = Number(number) - 1;
      if (index < 0 || index >= view.optionCount) {
        const shown = truncateText(number, 12);
        return { kind: 'retry', message: `There is no option ${shown}: type ${range(view)}.` };
      }
      indexes.add(index);
    }
    const sorted = [...indexes].sort((a, b) => a - b);
    if (numbered[2] === undefined) return { kind: 'options', indexes: sorted };
    const typed = typedWith(view, numbered[2]);
    return typed.kind === 'text' ? { kind: 'options', indexes: sorted, text: typed.text } : typed;
  }
  const index = matchLabel(view, text);
  if (index >= 0) return { kind: 'options', indexes: [index] };
  if (text.startsWith(LITERAL)) return typedWith(view, text.slice(LITERAL.length));
  if (view.allowCustom) return typedAnswer(text);
  const shown = truncateText(neutralizeText(text), 40);
  return {
    kind: 'retry',
    message: `"${shown}" is not one of the options: type ${range(view)}${severalExample(view)}.`,
  };
}

/** The text after `=`, as a typed answer where the question takes one. */
function typedWith(view: QuestionView, after: string): LineAnswer {
  if (!view.allowCustom) {
    return { kind: 'retry', message: `This question takes only its options: type ${range(view)}.` };
  }
  const own = after.trim();
  return isBlankText(own)
    ? { kind: 'retry', message: `Type your answer after ${LITERAL}, such as ${LITERAL}5432.` }
    : typedAnswer(own);
}
