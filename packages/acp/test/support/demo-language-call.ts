/** The demo's first question, as the tool call a client is shown for it. */
export const DEMO_LANGUAGE_CALL = {
  toolCallId: 'language',
  title: 'Which language should the new service be written in?',
} as const;
