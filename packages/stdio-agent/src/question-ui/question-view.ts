import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  acceptsCustomAnswer,
  hasOptions,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../text/neutralize-text.js';
import { textWidth, textWidthBound, wrapText } from '../text/text-width.js';

/** Room the recommended mark takes after a label. */
const RECOMMENDED_LENGTH = ' (recommended)'.length;

/**
 * A question as the screen shows it: every model-written field neutralised. Labels and
 * descriptions are neutralised when first shown, so a long list costs nothing up front.
 */
export interface QuestionView {
  readonly header: string | undefined;
  /** The question, with its line breaks kept. */
  readonly question: string;
  /** What a one-line summary names the question by: the header, else the question's first line. */
  readonly title: string;
  readonly options: readonly AskUserQuestionOption[];
  readonly optionCount: number;
  readonly allowCustom: boolean;
  /** Index of the recommended option, or -1. */
  readonly recommended: number;
  label(index: number): string;
  description(index: number): string | undefined;
  /** The question wrapped to `width` columns; kept until the width changes. */
  questionLines(width: number): readonly string[];
  /**
   * Whether any option has something to show in the details pane at this label width: a
   * description, or a label too wide for its row. Found once per width, not per key.
   */
  hasDetails(labelWidth: number): boolean;
}

/** Builds the neutralised view of a request. */
export function questionView(request: AskUserQuestionRequest): QuestionView {
  const options = hasOptions(request) ? request.options : [];
  const header = request.header === undefined ? undefined : neutralizeText(request.header.trim());
  const question = neutralizeText(request.question.trim(), { multiline: true });
  const labels: (string | undefined)[] = [];
  const descriptions: (string | null | undefined)[] = [];
  let wrapped: { width: number; lines: readonly string[] } | undefined;
  const hasDescriptions = options.some((option) => option.description !== undefined);
  let details: { width: number; found: boolean } | undefined;
  const recommended = options.findIndex((option) => option.recommended === true);
  const view: QuestionView = {
    header,
    question,
    title: header ?? (question.split('\n')[0] as string),
    options,
    optionCount: options.length,
    allowCustom: acceptsCustomAnswer(request),
    recommended,
    label(index) {
      let label = labels[index];
      if (label === undefined) {
        label = neutralizeText((options[index] as AskUserQuestionOption).label.trim());
        labels[index] = label;
      }
      return label;
    },
    description(index) {
      let description = descriptions[index];
      if (description === undefined) {
        const text = (options[index] as AskUserQuestionOption).description;
        description = text === undefined ? null : neutralizeText(text.trim(), { multiline: true });
        descriptions[index] = description;
      }
      return description ?? undefined;
    },
    questionLines(width) {
      if (wrapped?.width !== width) wrapped = { width, lines: wrapText(question, width) };
      return wrapped.lines;
    },
    hasDetails(labelWidth) {
      if (hasDescriptions) return true;
      if (details?.width !== labelWidth) {
        let found = false;
        for (let index = 0; index < options.length && !found; index++) {
          const room = labelWidth - (index === recommended ? RECOMMENDED_LENGTH : 0);
          const label = view.label(index);
          // Exact widths cost a segmentation each (emoji, marks): most labels are found to
          // fit by a bound, and only the others are measured.
          found = textWidthBound(label) > room && textWidth(label) > room;
        }
        details = { width: labelWidth, found };
      }
      return details.found;
    },
  };
  return view;
}
