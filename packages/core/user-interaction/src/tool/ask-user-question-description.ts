import type { UserInteractionCapabilities } from '../user-interaction-provider.js';

const BASE_DESCRIPTION = `Ask the person you are working for a question and wait for their answer.

Use it when you need a decision or a fact only they have: a choice between approaches, a name or path you cannot find yourself, a preference, or approval before something hard to undo. Do not ask what you can find out yourself. Never ask for passwords, API keys, tokens or other secrets: answers are shown on screen, kept in logs and sent to you as plain text.

- question: one complete sentence, ending with a question mark.
- header: optional, a very short label (one to three words) shown above the question, such as "Database".
- options: give them when there are a few clear choices. Short labels (one to five words), a description only when the trade-off is not obvious, and a value when the program needs a precise identifier. Put the option you recommend first and mark it with recommended: true (at most one). Long lists are fine when the choice really is long.
- Do not add an "Other", "None of these" or "Something else" option: the UI itself offers the person a way to type their own answer next to the options. Set allow_custom: false only when an answer outside the options cannot be used.
- Leave options out for an open question (a name, a path, a sentence): the person types the answer.

Several questions at once: instead of question, give questions, a list of up to 10, each with an id (a short name such as "database", unique among them), a question, and the same header, options and allow_custom as above. Ask together the questions you need before you can go on and whose answers do not depend on each other, rather than one call after another; ask alone a question whose answer decides what to ask next. multi_select: true lets the person choose several options of one question (which features to include, which files to keep); it needs options. With questions, header labels the whole set.

The result is the person's answer: the chosen option's value (else its label), or the text they typed. For questions, it is JSON keyed by id, such as {"database":{"chosen":["postgres"]},"name":{"typed":"my-app"},"features":{"chosen":["auth","tests"],"typed":"metrics"}}: chosen holds the values of the options the person chose, typed the text they typed (instead of an option, or for a multi-select next to the options). The questions are answered together or not at all: if the result is an error, none of them was answered.

If the result is an error, its code says why and what to do next:
- ASK_DECLINED: they chose not to answer. Continue without it, using your best judgement, and do not ask the same again.
- ASK_CANCELLED: they dismissed the question, usually to stop or redirect you. Do not ask it again; stop and wait for their next message.
- ASK_ABORTED: the question was withdrawn (the turn was cancelled). Do not assume any answer.
- ASK_TIMEOUT: nobody answered in time. Continue with a safe default, or stop if there is none.
- INPUT_CLOSED or NO_PROVIDER: nobody can answer any more. Do not ask again in this conversation.
- UNSUPPORTED: this UI cannot show that kind of question: ask with options instead, one choice at a time, or one question at a time, as its message says.
- INVALID_REQUEST: fix the field the message names and call again.
- INVALID_ANSWER or ASK_FAILED: the UI failed to return a usable answer. You may ask once more; if it fails again, continue without it.`;

/** What the model is told when the UI cannot show questions at all. */
const NO_QUESTIONS =
  "This UI cannot show questions: do not call this tool (it fails with UNSUPPORTED). When you need an answer, ask the question in your reply text, end your turn, and take the person's next message as the answer.";

/**
 * The tool description for a UI with the given capabilities: it tells the model what the
 * UI cannot show, so the model does not keep trying.
 */
export function describeAskUserQuestionTool(capabilities?: UserInteractionCapabilities): string {
  if (capabilities?.questions === false) {
    return `${BASE_DESCRIPTION}\n\n${NO_QUESTIONS}`;
  }
  const limits: string[] = [];
  if (capabilities?.freeForm === false) {
    limits.push(
      'This UI can only show questions with options: always give options; a question without them fails with UNSUPPORTED.',
    );
  }
  if (capabilities?.multiSelect === false) {
    limits.push(
      'This UI shows one choice at a time: leave multi_select out (a question with it fails with UNSUPPORTED) and ask for one choice.',
    );
  }
  if (capabilities?.customAnswer === false) {
    limits.push(
      'This UI cannot take a typed answer: allow_custom has no effect, so make the options cover the likely answers.',
    );
  }
  return limits.length === 0 ? BASE_DESCRIPTION : `${BASE_DESCRIPTION}\n\n${limits.join('\n')}`;
}

/** The tool description for a UI that can show every kind of question. */
export const ASK_USER_QUESTION_TOOL_DESCRIPTION = describeAskUserQuestionTool();
