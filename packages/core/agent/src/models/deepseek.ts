import type { ThinkingLevel } from './thinking.js';

// What DeepSeek's API documents today (api-docs.deepseek.com: "Models & Pricing", "Thinking Mode",
// "Error Codes"). Everything this package knows about DeepSeek in particular stands here.

/** DeepSeek's OpenAI-compatible endpoint, the default server. */
export const DEEPSEEK_BASE_URL = 'https://api.deepseek.com';

/** The default model: DeepSeek-V4.1-Flash, the name DeepSeek's pricing page tells callers to use. */
export const DEEPSEEK_MODEL = 'deepseek-flash';

/** The model names DeepSeek serves today, the default first. */
export const DEEPSEEK_MODELS: readonly string[] = Object.freeze([
  'deepseek-flash',
  'deepseek-v4-pro',
]);

/** Names DeepSeek no longer serves, and when they went (for the message a server refusal gets). */
const RETIRED_MODELS: Readonly<Record<string, string>> = Object.freeze({
  'deepseek-chat': 'retired on 2026-07-24',
  'deepseek-reasoner': 'retired on 2026-07-24',
});

/** True when `baseURL` is DeepSeek's own server: the only one `DEEPSEEK_API_KEY` is ever sent to. */
export function isDeepSeekHost(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === new URL(DEEPSEEK_BASE_URL).hostname;
  } catch {
    return false;
  }
}

/**
 * True when requests speak DeepSeek's dialect: the server is DeepSeek's own (host
 * `api.deepseek.com`), or the model name starts with `deepseek-` (DeepSeek behind a proxy or a
 * compatible server).
 */
export function speaksDeepSeek(baseURL: string, model: string): boolean {
  return isDeepSeekHost(baseURL) || model.startsWith('deepseek-');
}

/**
 * The request fields that set the thinking level. DeepSeek: `thinking: {type}` turns thinking on
 * or off (on by default) and `reasoning_effort` sets its effort. Any other server gets only the
 * OpenAI-standard `reasoning_effort` (`none` for off). Without a level, nothing is sent and the
 * server's default applies.
 */
export function thinkingFields(
  level: ThinkingLevel | undefined,
  deepSeek: boolean,
): Record<string, unknown> {
  if (level === undefined) return {};
  if (!deepSeek) return { reasoning_effort: level === 'off' ? 'none' : level };
  if (level === 'off') return { thinking: { type: 'disabled' } };
  return { thinking: { type: 'enabled' }, reasoning_effort: level };
}

// DeepSeek answers an unknown model with HTTP 400 "Model Not Exist", and a retired one with "The
// supported API model names are …, but you passed …".
const UNKNOWN_MODEL =
  /model not exist|supported api model names|model.{0,40}(does not exist|not found)/i;

/** True when a server's refusal says the model name is unknown. */
export function isUnknownModelRefusal(detail: string): boolean {
  return UNKNOWN_MODEL.test(detail);
}

/** What to tell the person about a model name a DeepSeek server refused. */
export function deepSeekModelHint(model: string): string {
  const retired = RETIRED_MODELS[model];
  const why = retired === undefined ? '' : ` (${model} was ${retired})`;
  return `The current DeepSeek models are ${DEEPSEEK_MODELS.join(' and ')}${why}: pass --model ${DEEPSEEK_MODEL}, or leave --model out.`;
}
