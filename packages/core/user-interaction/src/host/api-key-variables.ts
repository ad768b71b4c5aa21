/**
 * The environment variables the agent reads its own API keys from. They are the agent's, not the
 * commands': `dsh-tools` takes each of them out of the environment of every command it runs.
 * The `openai` client is told never to read its own `OPENAI_*` variables, so they are not here.
 */
export const API_KEY_VARIABLES = Object.freeze(['DEEPSEEK_API_KEY', 'DSH_API_KEY'] as const);

/** One of `API_KEY_VARIABLES`. */
export type ApiKeyVariable = (typeof API_KEY_VARIABLES)[number];
