import type { Agent, AskUserQuestionItem, UserInteraction } from 'dsh-user-interaction';
import { fieldProblem } from './check-field.js';
import { clip, fieldQuestion, readFieldAnswer, shownValue } from './field-question.js';
import type { FieldValue, FormField } from './form-field.js';

/** The part of the question service a form is asked through. */
export type FormInteraction = Pick<UserInteraction, 'ask' | 'askAll'>;

/** How a form is asked: by whom, for whom, under which signal. */
export interface AskFormOptions {
  /** The server that asks, shown in every question's header. */
  readonly serverName: string;
  readonly signal?: AbortSignal;
  readonly agent?: Agent;
  /** The time the person has for each question (see `answerElicitations`). */
  readonly timeoutMs?: number;
  /** Ask the person to review the answers before they are sent (default `true`). */
  readonly review?: boolean;
  /** How many times an answer that breaks the form's rules is asked again (default 3). */
  readonly attempts?: number;
}

/** The answers to a form, or why they could not be had (the person's decline, or a reason). */
export type FormOutcome =
  | { readonly action: 'accept'; readonly content: Record<string, FieldValue> }
  | { readonly action: 'decline'; readonly reason: string };

/** The most questions asked at once (`REQUEST_LIMITS.questions` of the contract). */
const AT_ONCE = 10;

/** A set's header: the server that asks, within the contract's 100 characters. */
export function serverHeader(serverName: string): string {
  return clip(`MCP server ${serverName}`, 100);
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += AT_ONCE)
    out.push(items.slice(start, start + AT_ONCE));
  return out;
}

/**
 * Asks `fields` (each with the problem its last answer had, if any) and returns the answers read,
 * with the fields whose answers still break a rule. A failed ask rejects (its `UserInteractionError`).
 */
async function askFields(
  interaction: FormInteraction,
  fields: readonly FormField[],
  values: Map<string, FieldValue>,
  problems: Map<string, string>,
  intro: string,
  options: AskFormOptions,
): Promise<void> {
  for (const part of chunks(fields)) {
    const questions: AskUserQuestionItem[] = part.map((field, index) => {
      const current = values.get(field.name);
      const problem = problems.get(field.name);
      return fieldQuestion(field, `f${index}`, {
        ...(index === 0 && { intro }),
        ...(problem !== undefined && { problem }),
        // An answer kept is offered again, unless it is the one that broke a rule.
        ...(current !== undefined && problem === undefined && { current }),
      });
    });
    const { answers } = await interaction.askAll({
      header: serverHeader(options.serverName),
      questions,
      ...(options.signal !== undefined && { signal: options.signal }),
      ...(options.agent !== undefined && { agent: options.agent }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
    part.forEach((field, index) => {
      const answer = answers[index];
      if (answer === undefined) return;
      const reading = readFieldAnswer(field, answer, values.get(field.name));
      problems.delete(field.name);
      if ('skip' in reading) values.delete(field.name);
      else if ('problem' in reading) problems.set(field.name, reading.problem);
      else {
        const problem = fieldProblem(field, reading.value);
        if (problem === undefined) values.set(field.name, reading.value);
        else problems.set(field.name, problem);
      }
    });
  }
}

/** Asks the person to look over the answers: true to send them, false to change them. */
async function reviewed(
  interaction: FormInteraction,
  fields: readonly FormField[],
  values: ReadonlyMap<string, FieldValue>,
  options: AskFormOptions,
): Promise<boolean> {
  const lines = fields.map((field) => {
    const value = values.get(field.name);
    return `${field.label}: ${value === undefined ? '(left empty)' : shownValue(field, value)}`;
  });
  const { option } = await interaction.ask({
    question: clip(`Send these answers to ${options.serverName}?\n\n${lines.join('\n')}`, 4000),
    header: serverHeader(options.serverName),
    options: [
      { label: 'Send', value: 'send', recommended: true },
      { label: 'Change answers', value: 'change' },
    ],
    allowCustom: false,
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.agent !== undefined && { agent: options.agent }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  return option?.value === 'send';
}

/**
 * Asks an MCP form through the question service, one question per field (up to ten at once),
 * checks every answer against the form's rules (asking again, naming the problem) and lets the
 * person review the answers before they are sent. Rejects with the service's error when an ask
 * fails (`ASK_DECLINED`, `ASK_CANCELLED`, ...); the caller maps it to the MCP result.
 */
export async function askForm(
  interaction: FormInteraction,
  message: string,
  fields: readonly FormField[],
  options: AskFormOptions,
): Promise<FormOutcome> {
  const values = new Map<string, FieldValue>();
  const problems = new Map<string, string>();
  const attempts = options.attempts ?? 3;
  const intro = clip(`${options.serverName} asks: ${message}`, 3000);
  let pending: readonly FormField[] = fields;
  let tries = 0;
  for (;;) {
    await askFields(interaction, pending, values, problems, intro, options);
    pending = fields.filter((field) => problems.has(field.name));
    if (pending.length > 0) {
      tries++;
      if (tries <= attempts) continue;
      const broken = pending.map((field) => `${field.label} ${problems.get(field.name)}`);
      return {
        action: 'decline',
        reason: `the answers did not fit the form: ${broken.join('; ')}`,
      };
    }
    // Changing the answers is the person's choice, as often as they like (they can always cancel).
    if (options.review === false || (await reviewed(interaction, fields, values, options))) break;
    pending = fields;
  }
  // Defaults are applied to fields the person left (SEP-1034).
  // Built from entries: a field a server names `__proto__` stays a field, never a prototype.
  const entries: [string, FieldValue][] = [];
  for (const field of fields) {
    const value = values.get(field.name) ?? field.default;
    if (value !== undefined) entries.push([field.name, value]);
  }
  return { action: 'accept', content: Object.fromEntries(entries) };
}
