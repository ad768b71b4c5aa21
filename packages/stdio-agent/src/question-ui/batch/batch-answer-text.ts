import { neutralizeText } from '../../text/neutralize-text.js';
import type { QuestionView } from '../question-view.js';
import type { BatchAnswer } from './batch-state.js';

/** Characters of an answer's text beyond which the rest of the ticked labels are only counted. */
const SHOWN_LENGTH = 1_000;

/** An answer as shown: the chosen labels, and the text typed, each neutralised. */
export interface BatchAnswerParts {
  readonly chosen?: string;
  readonly typed?: string;
}

/** The parts of an answer. A long list of ticks costs what can be shown, not what was ticked. */
export function batchAnswerParts(view: QuestionView, answer: BatchAnswer): BatchAnswerParts {
  switch (answer.kind) {
    case 'option':
      return { chosen: view.label(answer.index) };
    case 'text':
      return { typed: neutralizeText(answer.text) };
    case 'options': {
      const parts: string[] = [];
      let length = 0;
      let shown = 0;
      for (const index of answer.indexes) {
        if (length > SHOWN_LENGTH) break;
        const label = view.label(index);
        parts.push(label);
        length += label.length + 2;
        shown++;
      }
      if (shown < answer.indexes.length) parts.push(`${answer.indexes.length - shown} more`);
      return {
        ...(parts.length > 0 && { chosen: parts.join(', ') }),
        ...(answer.text !== undefined && { typed: neutralizeText(answer.text) }),
      };
    }
  }
}

/** What a person reads for an answer: the chosen labels, then the typed text, joined with commas. */
export function batchAnswerText(view: QuestionView, answer: BatchAnswer): string {
  const { chosen, typed } = batchAnswerParts(view, answer);
  return [chosen, typed].filter((part) => part !== undefined).join(', ');
}
