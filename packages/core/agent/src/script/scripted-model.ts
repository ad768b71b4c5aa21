import type { Model, ModelEvent, ModelRequest, ModelToolCall } from '../models/model.js';
import { DEFAULT_SCRIPT_END, type Script, type ScriptStep } from './script.js';
import { renderTemplate, resultsById } from './script-template.js';
import { validateScript } from './validate-script.js';

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  /** Names the script in the model's id (`scripted:<name>`) and in errors (default `script`). */
  readonly name?: string;
}

// A word with the spaces after it: small enough that a UI shows the text arriving.
const CHUNK = /\S+\s*|\s+/g;

function renderArguments(value: unknown, render: (text: string) => string): unknown {
  if (typeof value === 'string') return render(value);
  if (Array.isArray(value)) return value.map((item) => renderArguments(item, render));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, renderArguments(item, render)]),
    );
  }
  return value;
}

function toolCallsOf(
  step: ScriptStep,
  stepIndex: number,
  render: (text: string) => string,
): ModelToolCall[] {
  return (step.toolCalls ?? []).map((call, callIndex) => ({
    id: call.id ?? `call_${stepIndex + 1}_${callIndex + 1}`,
    name: call.name,
    // Raw JSON text is quoted as is; an object is rendered first and serialized after, so
    // an answer cannot break its JSON.
    arguments:
      typeof call.arguments === 'string'
        ? render(call.arguments)
        : JSON.stringify(renderArguments(call.arguments ?? {}, render)),
  }));
}

/**
 * A model that replays a script, offline. It reads its place from the conversation (one step
 * per assistant message so far), so it keeps no state and one instance can serve many agents.
 * Throws `SCRIPT_INVALID` for a script that does not validate.
 */
export function createScriptedModel(script: unknown, options: ScriptedModelOptions = {}): Model {
  const name = options.name ?? 'script';
  const checked: Script = validateScript(structuredClone(script), name);
  const end = checked.end ?? DEFAULT_SCRIPT_END;

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    const { messages, signal } = request;
    const stepIndex = messages.filter((message) => message.role === 'assistant').length;
    const step = checked.steps[stepIndex];
    const results = resultsById(messages);
    const render = (text: string): string => renderTemplate(text, results);
    const text = step === undefined ? end : render(step.text ?? '');
    for (const chunk of text.match(CHUNK) ?? []) {
      if (signal.aborted) return;
      yield { type: 'text-delta', text: chunk };
    }
    const calls = step === undefined ? [] : toolCallsOf(step, stepIndex, render);
    for (const call of calls) {
      if (signal.aborted) return;
      yield { type: 'tool-call', call };
    }
    if (signal.aborted) return;
    yield { type: 'finish', reason: calls.length === 0 ? 'stop' : 'tool-calls' };
  }

  return { id: `scripted:${name}`, stream };
}
