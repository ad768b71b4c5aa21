import { basename } from 'node:path';
import type { ApiKeyVariable } from '../models/api-key-variables.js';
import { DEEPSEEK_BASE_URL, isDeepSeekHost } from '../models/deepseek.js';
import type { Model } from '../models/model.js';
import { ModelError } from '../models/model-error.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible-model.js';
import {
  baseUrlProblem,
  type OpenAICompatibleModelOptions,
} from '../models/openai-compatible-model-options.js';
import { displayServer } from '../models/openai-model-error.js';
import { DEMO_SCRIPT } from '../script/demo-script.js';
import { loadScript } from '../script/load-script.js';
import { createScriptedModel } from '../script/scripted-model.js';

/**
 * What a program was asked to use, from its flags and environment. `model` (`--model`),
 * `thinking` (`--thinking`) and `maxRetries` (`--retries`) go to `createOpenAICompatibleModel`
 * as they are; scripted models ignore them.
 */
export interface ResolveModelOptions
  extends Pick<OpenAICompatibleModelOptions, 'model' | 'thinking' | 'maxRetries'> {
  /** `--base-url`: an OpenAI-compatible server. */
  readonly baseUrl?: string | undefined;
  /** An explicit API key; takes precedence over the environment. */
  readonly apiKey?: string | undefined;
  /** `--script FILE`: replay this script offline. */
  readonly script?: string | undefined;
  /**
   * `--request-timeout`: how long the model server may stay silent, in milliseconds
   * (`timeoutMs` of `createOpenAICompatibleModel`; ignored by scripted models).
   */
  readonly requestTimeoutMs?: number | undefined;
  /** Where to read `DEEPSEEK_API_KEY` and `DSH_API_KEY` (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The model a program should use, and one line that tells the person which it is. */
export interface ResolvedModel {
  readonly model: Model;
  /** Which rule chose it. */
  readonly kind: 'script' | 'openai-compatible' | 'demo';
  /** One line for the person, such as `deepseek-flash at https://api.deepseek.com`. */
  readonly description: string;
}

/** The line shown when the built-in demo runs. */
export const DEMO_DESCRIPTION =
  'built-in demo (offline, scripted); set DEEPSEEK_API_KEY or pass --base-url to use a real model';

function set(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function findKey(options: ResolveModelOptions): {
  key?: string;
  source: string;
  variable?: ApiKeyVariable;
} {
  const env = options.env ?? process.env;
  const explicit = set(options.apiKey);
  if (explicit !== undefined) return { key: explicit, source: 'API key given' };
  const baseUrl = set(options.baseUrl);
  // DEEPSEEK_API_KEY goes to DeepSeek only, never to a server named by --base-url.
  const deepSeekKey =
    baseUrl === undefined || isDeepSeekHost(baseUrl) ? set(env.DEEPSEEK_API_KEY) : undefined;
  if (deepSeekKey !== undefined)
    return {
      key: deepSeekKey,
      source: 'key from DEEPSEEK_API_KEY',
      variable: 'DEEPSEEK_API_KEY',
    };
  const genericKey = set(env.DSH_API_KEY);
  if (genericKey !== undefined)
    return { key: genericKey, source: 'key from DSH_API_KEY', variable: 'DSH_API_KEY' };
  return { source: 'no API key' };
}

/**
 * The rule both programs use: `--script FILE` replays that script; else a key in the
 * environment (`DEEPSEEK_API_KEY`, or `DSH_API_KEY`) or a `--base-url` selects an
 * OpenAI-compatible server; else the built-in demo runs. Throws `SCRIPT_INVALID` for a bad
 * script, and `MODEL_OPTIONS_INVALID` for a bad base URL or a `--model` with no server to use.
 */
export async function resolveModel(options: ResolveModelOptions = {}): Promise<ResolvedModel> {
  const script = set(options.script);
  if (script !== undefined) {
    const model = createScriptedModel(await loadScript(script), { name: basename(script) });
    return { model, kind: 'script', description: `script ${script} (offline, scripted)` };
  }
  const baseUrl = set(options.baseUrl);
  const { key, source, variable } = findKey(options);
  const modelName = set(options.model);
  if (key !== undefined || baseUrl !== undefined) {
    const problem = baseUrl === undefined ? undefined : baseUrlProblem(baseUrl);
    if (problem !== undefined) throw new ModelError(problem, 'MODEL_OPTIONS_INVALID');
    const model = createOpenAICompatibleModel({
      ...(baseUrl !== undefined && { baseURL: baseUrl }),
      ...(modelName !== undefined && { model: modelName }),
      ...(key !== undefined && { apiKey: key }),
      ...(variable !== undefined && { apiKeySource: variable }),
      ...(options.thinking !== undefined && { thinking: options.thinking }),
      ...(options.requestTimeoutMs !== undefined && { timeoutMs: options.requestTimeoutMs }),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    });
    const server = displayServer(baseUrl ?? DEEPSEEK_BASE_URL);
    return {
      model,
      kind: 'openai-compatible',
      description: `${model.id} at ${server} (${source}${options.thinking === undefined ? '' : `, thinking ${options.thinking}`})`,
    };
  }
  if (modelName !== undefined) {
    throw new ModelError(
      `--model ${modelName} needs a model server: set DEEPSEEK_API_KEY (or DSH_API_KEY), or pass --base-url.`,
      'MODEL_OPTIONS_INVALID',
    );
  }
  return {
    model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
    kind: 'demo',
    description: DEMO_DESCRIPTION,
  };
}
