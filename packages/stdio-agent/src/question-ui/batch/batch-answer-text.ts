import { neutralizeText } from '../../text/neutralize-text.js';
import type { QuestionView } from '../question-view.js';
import type { BatchAnswer } from './batch-state.js';

/** Characters of an answer's text beyond which the rest of the ticked labels are only counted. */
const SHOWN_LENGTH = 1_000;

/**
 * What a person reads for an answer: the chosen labels, then the typed text, joined with
 * commas. A long list of ticks costs what can be shown, not what was ticked.
 */
export function batchAnswerText(view: QuestionView, answer: BatchAnswer): string {
  switch (answer.kind) {
    case 'option':
      return view.label(answer.index);
    case 'text':
      return neutralizeText(answer.text);
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
      if (answer.text !== undefined) parts.push(neutralizeText(answer.text));
      return parts.join(', ');
    }
  }
}
