import { type Agent, ASK_USER_QUESTION_TOOL_NAME, REQUEST_LIMITS } from 'dsh-user-interaction';
import type { Model, ModelMessage } from '../models/model.js';
import { AgentError } from './agent-error.js';
import type { AgentEvent } from './agent-event.js';
import type { AgentInteraction, AgentTool } from './agent-tool.js';
import { createAskUserQuestionAgentTool } from './ask-user-question-agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from './conversation-entry.js';
import { messageOf } from './conversation-order.js';
import { DEFAULT_INSTRUCTIONS } from './default-instructions.js';
import { ASK_EVERY_CALL, type PermissionPolicy } from './permission-policy.js';
import { closingEntries, type ResumePoint, restoreConversation } from './restore-conversation.js';
import { runTurn, type TurnScope } from './run-turn.js';

/** How many model requests a turn may make when `maxSteps` is not given. */
export const DEFAULT_MAX_STEPS = 25;

/** Options of `createAgent`. */
export interface AgentOptions {
  /** The agent's id, passed to UIs with every question (default: a random UUID). */
  readonly id?: string;
  /** The model that writes the assistant's steps. */
  readonly model: Model;
  /** Where the built-in `ask_user_question` tool asks (usually `createUserInteraction()`). */
  readonly interaction: AgentInteraction;
  /** More tools, offered after `ask_user_question`. Names must be unique. */
  readonly tools?: readonly AgentTool[];
  /** The system prompt (default: `DEFAULT_INSTRUCTIONS`; an empty string sends none). */
  readonly instructions?: string;
  /** Model requests per turn before it ends with `step-limit` (default: `DEFAULT_MAX_STEPS`). */
  readonly maxSteps?: number;
  /** A time limit for each question, in milliseconds (default: none). */
  readonly questionTimeoutMs?: number;
  /**
   * The conversation so far, to go on with (a session restored from a store). A turn left
   * unfinished while a question or an approval waited for the person can go on (`resume`); any
   * other unfinished turn, and that one when `run` comes first, is closed as cancelled, every
   * open tool call with a `TURN_CANCELLED` result, but the first when it may have run
   * (`TOOL_INTERRUPTED`: allowed before the stop, or of a tool without `describe`).
   */
  readonly conversation?: readonly ConversationEntry[];
  /** Receives each entry of the conversation as it happens, to store it (default: none). */
  readonly recorder?: ConversationRecorder;
  /**
   * Decides, before they run, the calls of tools that describe themselves (the workspace tools
   * of `dsh-tools`): a rule or the policy decides, or the person is asked through
   * `interaction.requestPermission`. Default: every such call asks.
   */
  readonly permissions?: PermissionPolicy;
}

/** Options of one turn. */
export interface RunOptions {
  /** Cancels the turn: stops the model request and withdraws a question on screen. */
  readonly signal?: AbortSignal;
  /**
   * The turn's own controller, made by a caller that has one per turn anyway (the ACP server's
   * prompt): the turn uses it rather than making one of its own, so aborting it cancels the
   * turn, and the turn aborts it when it ends (or its consumer stops iterating). `signal`, when
   * also given, aborts it. Give each turn a new one.
   */
  readonly controller?: AbortController;
}

/** A chat agent: a conversation, a model and tools. It satisfies the contract's `Agent`. */
export interface ChatAgent extends Agent {
  readonly id: string;
  readonly model: Model;
  /** The conversation so far (a copy), system prompt first. Always valid to send to a model. */
  readonly messages: readonly ModelMessage[];
  /** Whether a turn is running. */
  readonly running: boolean;
  /**
   * Runs one turn for the person's prompt; the turn starts when iteration starts and always
   * ends with a `turn-end` event. Stopping the iteration early cancels the turn. Starting a
   * turn while another runs rejects with `AGENT_BUSY`.
   */
  run(prompt: string, options?: RunOptions): AsyncGenerator<AgentEvent, void, undefined>;
  /**
   * True when the conversation given stopped while a question or an approval waited for the
   * person (the program was killed, or crashed): `resume` goes on with that turn.
   */
  readonly resumable: boolean;
  /**
   * Goes on with the turn the conversation stopped in (see `resumable`): the question or
   * approval that waited is put to the person again, for the same tool call, and its answer
   * goes to that call; answers stored before the stop are kept, calls that had not started
   * run, a call that acts and was approved is never run twice (`TOOL_INTERRUPTED`). Then the
   * model goes on, and the turn ends with a `turn-end` event as any turn. Yields nothing when
   * there is no turn to go on with.
   */
  resume(options?: RunOptions): AsyncGenerator<AgentEvent, void, undefined>;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The options of one agent that its program may share with others: all but `id` and `interaction`. */
type SharedAgentOptions = Omit<AgentOptions, 'id' | 'interaction'>;

function checkOptions(options: AgentOptions): void {
  checkSharedOptions(options);
  if (typeof options.interaction?.ask !== 'function') {
    throw new TypeError('createAgent() needs an `interaction` with an ask(request) method.');
  }
  const { id } = options;
  if (id !== undefined && (typeof id !== 'string' || id.trim() === '')) {
    throw new TypeError('createAgent(): `id` must be a non-blank string.');
  }
}

function checkSharedOptions(options: SharedAgentOptions): void {
  if (typeof options?.model?.stream !== 'function') {
    throw new TypeError('createAgent() needs a `model` with a stream(request) method.');
  }
  const { maxSteps, questionTimeoutMs } = options;
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    throw new TypeError('createAgent(): `instructions` must be a string.');
  }
  const { recorder } = options;
  if (
    recorder !== undefined &&
    (typeof recorder?.add !== 'function' || typeof recorder.flush !== 'function')
  ) {
    throw new TypeError('createAgent(): `recorder` needs add(entry) and flush() methods.');
  }
  const { permissions } = options;
  if (permissions !== undefined && typeof permissions?.decide !== 'function') {
    throw new TypeError('createAgent(): `permissions` needs a decide(check) method.');
  }
  if (maxSteps !== undefined && !(Number.isSafeInteger(maxSteps) && maxSteps > 0)) {
    throw new TypeError('createAgent(): `maxSteps` must be a positive integer.');
  }
  const validTimeout =
    typeof questionTimeoutMs === 'number' &&
    questionTimeoutMs > 0 &&
    questionTimeoutMs <= REQUEST_LIMITS.timeoutMs;
  if (questionTimeoutMs !== undefined && !validTimeout) {
    throw new TypeError(
      `createAgent(): \`questionTimeoutMs\` must be above 0 and at most ${REQUEST_LIMITS.timeoutMs}.`,
    );
  }
}

/**
 * Throws the `TypeError` `createAgent` would throw for these options, without making an agent:
 * for a program that makes one agent per session from the same options (the ACP server), and
 * gives each its own `id` and `interaction`, to fail at start rather than at the first session.
 */
export function checkAgentOptions(options: SharedAgentOptions): void {
  checkSharedOptions(options);
  toolMap(options);
  if (options.conversation !== undefined) {
    restoreConversation(options.conversation, 'createAgent(): `conversation`');
  }
}

function toolMap(options: SharedAgentOptions): Map<string, AgentTool> {
  const tools = new Map<string, AgentTool>();
  const ask = createAskUserQuestionAgentTool(
    options.questionTimeoutMs === undefined ? {} : { timeoutMs: options.questionTimeoutMs },
  );
  tools.set(ask.name, ask);
  for (const tool of options.tools ?? []) {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw new TypeError(
        `createAgent(): tool name ${JSON.stringify(tool?.name)} must be 1 to 64 letters, digits, _ or -.`,
      );
    }
    if (typeof tool.execute !== 'function') {
      throw new TypeError(
        `createAgent(): tool "${tool.name}" needs an execute(args, context) method.`,
      );
    }
    if (tools.has(tool.name)) {
      const why =
        tool.name === ASK_USER_QUESTION_TOOL_NAME ? 'is built in' : 'is given more than once';
      throw new TypeError(`createAgent(): tool "${tool.name}" ${why}.`);
    }
    tools.set(tool.name, tool);
  }
  return tools;
}

/** Creates a chat agent with the `ask_user_question` tool built in. */
export function createAgent(options: AgentOptions): ChatAgent {
  checkOptions(options);
  const id = options.id ?? globalThis.crypto.randomUUID();
  const setup = {
    agentId: id,
    model: options.model,
    interaction: options.interaction,
    tools: toolMap(options),
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    questionTimeoutMs: options.questionTimeoutMs,
    permissions: options.permissions ?? ASK_EVERY_CALL,
    recorder: options.recorder,
  };
  const instructions = options.instructions ?? DEFAULT_INSTRUCTIONS;
  const messages: ModelMessage[] =
    instructions === '' ? [] : [Object.freeze({ role: 'system', content: instructions })];
  /** Where the turn the conversation stopped in goes on from, until it does or is closed. */
  let resumePoint: ResumePoint | undefined;
  if (options.conversation !== undefined) {
    const restored = restoreConversation(options.conversation, 'createAgent(): `conversation`');
    for (const message of restored.messages) messages.push(message);
    // The entries that close a turn left unfinished belong to the record too.
    for (const entry of restored.closing) options.recorder?.add(entry);
    resumePoint = restored.resume;
  }
  let running = false;

  /** Closes the turn that could have gone on: a new prompt comes first. */
  function closeResumable(): void {
    if (resumePoint === undefined) return;
    for (const entry of closingEntries(resumePoint.order)) {
      const message = messageOf(entry);
      if (message !== undefined) messages.push(message);
      options.recorder?.add(entry);
    }
    resumePoint = undefined;
  }

  /** A turn on `prompt`, or the one the conversation stopped in (`resume`) when undefined. */
  function run(
    prompt: string | undefined,
    { signal, controller }: RunOptions = {},
  ): AsyncGenerator<AgentEvent, void, undefined> {
    // The turn's one generator, from the model to the consumer; these run as iteration starts
    // and once the turn is over.
    const scope: TurnScope = {
      begin() {
        if (running) {
          throw new AgentError(
            'This agent is already running a turn: wait for its turn-end event or cancel it first.',
            'AGENT_BUSY',
          );
        }
        if (prompt !== undefined) {
          closeResumable();
          running = true;
          return { prompt };
        }
        const point = resumePoint;
        if (point === undefined) return undefined;
        resumePoint = undefined;
        running = true;
        return { point };
      },
      end() {
        running = false;
      },
    };
    return runTurn(setup, messages, scope, signal, controller);
  }

  return {
    id,
    model: options.model,
    get messages() {
      return messages.slice();
    },
    get running() {
      return running;
    },
    run(prompt, runOptions) {
      if (typeof prompt !== 'string') {
        throw new TypeError('run() needs the prompt as a string.');
      }
      return run(prompt, runOptions);
    },
    get resumable() {
      return resumePoint !== undefined;
    },
    resume(runOptions) {
      return run(undefined, runOptions);
    },
  };
}
