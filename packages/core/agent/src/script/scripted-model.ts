import type {
  Model,
  ModelEvent,
  ModelMessage,
  ModelRequest,
  ModelToolCall,
} from '../models/model.js';
import { DEFAULT_SCRIPT_END, type Script, type ScriptStep, type ScriptToolCall } from './script.js';
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

/** Whether `value` holds a string that quotes an answer: one with none is the same every time. */
function quotesAnswers(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(quotesAnswers);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(quotesAnswers);
  return false;
}

/** A step's call arguments as JSON text, from the answers so far (`render`). */
type ArgumentsText = (render: (text: string) => string) => string;

/**
 * How each call of `step` gets its arguments' JSON text: raw JSON text is quoted as is; an
 * object is rendered first and serialized after, so an answer cannot break its JSON. Text that
 * quotes no answer is made once, not at every request.
 */
function argumentsTextsOf(step: ScriptStep): ArgumentsText[] {
  return (step.toolCalls ?? []).map(({ arguments: args }) => {
    if (!quotesAnswers(args)) {
      const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
      return () => text;
    }
    return typeof args === 'string'
      ? (render) => render(args)
      : (render) => JSON.stringify(renderArguments(args ?? {}, render));
  });
}

/**
 * The calls of `step` not yet answered, in one array made by one literal here whatever the step:
 * `stream` then sees one kind of array (a `map` then `filter` of a step with no calls made arrays
 * of another elements kind, and deoptimised it once the agent was warm).
 */
function toolCallsOf(
  step: ScriptStep | undefined,
  stepIndex: number,
  argumentsTexts: readonly ArgumentsText[],
  render: (text: string) => string,
  answered: ReadonlySet<string>,
): ModelToolCall[] {
  const calls: ModelToolCall[] = [];
  const toolCalls = step?.toolCalls ?? [];
  for (let callIndex = 0; callIndex < toolCalls.length; callIndex++) {
    const call = toolCalls[callIndex] as ScriptToolCall;
    const id = call.id ?? `call_${stepIndex + 1}_${callIndex + 1}`;
    if (answered.has(id)) continue;
    calls.push({
      id,
      name: call.name,
      arguments: (argumentsTexts[callIndex] as ArgumentsText)(render),
    });
  }
  return calls;
}

/** The code of a tool result whose call the cancel (or the end of the program) cut short. */
const CUT_SHORT = 'TURN_CANCELLED';

/** Where the script stands: the step the next request plays, and its calls already answered. */
export interface ScriptPlace {
  /** The step to play; `steps.length` means the `end` line. */
  readonly step: number;
  /** Ids of that step's calls answered before a cancel cut the step short: not asked again. */
  readonly answered: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Where the script stands after a conversation, found by following the script's runs through
 * it: each assistant message is the step after the one before (or the `end` line past the last
 * step). At the person's next message, a step that did not complete (a call of it cancelled,
 * or the step cut short before it made its calls) is played again, without the calls already
 * answered; after the last step, a new run starts from the first.
 */
export function scriptPlace(
  messages: readonly ModelMessage[],
  steps: readonly ScriptStep[],
): ScriptPlace {
  let next = 0;
  let played: number | undefined;
  let incomplete = false;
  let answered = new Set<string>();
  let redo: ScriptPlace | undefined;
  for (const message of messages) {
    if (message.role === 'user') {
      redo = undefined;
      if (played !== undefined && incomplete) {
        next = played;
        redo = { step: played, answered };
      } else if (next >= steps.length) next = 0;
      incomplete = false;
    } else if (message.role === 'assistant') {
      const step = steps[next];
      // Past the last step, the message is the end line: the run is over.
      played = step === undefined ? undefined : next;
      if (step === undefined) continue;
      // A step played again keeps what was answered the first time.
      answered = redo?.step === next ? new Set(redo.answered) : new Set();
      redo = undefined;
      next++;
      incomplete = (message.toolCalls?.length ?? 0) < (step.toolCalls?.length ?? 0) - answered.size;
    } else if (message.role === 'tool') {
      if (message.error === undefined) answered.add(message.toolCallId);
      else if (message.error.code === CUT_SHORT) incomplete = true;
    }
  }
  return redo ?? { step: Math.min(next, steps.length), answered: NONE };
}

/**
 * A model that replays a script, offline. It reads its place from the conversation (see
 * `scriptPlace`), so it keeps no state: one instance serves many agents, and a conversation
 * restored from a store goes on where it stopped. Throws `SCRIPT_INVALID` for a script that
 * does not validate.
 */
export function createScriptedModel(script: unknown, options: ScriptedModelOptions = {}): Model {
  const name = options.name ?? 'script';
  const checked: Script = validateScript(structuredClone(script), name);
  const end = checked.end ?? DEFAULT_SCRIPT_END;
  const argumentsTexts = checked.steps.map(argumentsTextsOf);

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    const { messages, signal } = request;
    const place = scriptPlace(messages, checked.steps);
    const stepIndex = place.step;
    const step = checked.steps[stepIndex];
    const results = resultsById(messages);
    const render = (text: string): string => renderTemplate(text, results);
    const text = step === undefined ? end : render(step.text ?? '');
    for (const chunk of text.match(CHUNK) ?? []) {
      if (signal.aborted) return;
      yield { type: 'text-delta', text: chunk };
    }
    const calls = toolCallsOf(
      step,
      stepIndex,
      argumentsTexts[stepIndex] ?? [],
      render,
      place.answered,
    );
    for (const call of calls) {
      if (signal.aborted) return;
      yield { type: 'tool-call', call };
    }
    if (signal.aborted) return;
    yield { type: 'finish', reason: calls.length === 0 ? 'stop' : 'tool-calls' };
  }

  return { id: `scripted:${name}`, stream };
}
