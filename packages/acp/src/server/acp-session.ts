import type { PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  type AgentEvent,
  type AgentOptions,
  type ChatAgent,
  createAgent,
  replayConversation,
  type StoredSession,
  type TurnEndEvent,
  toolCallIdOf,
} from 'dsh-agent';
import {
  type AskUserQuestionRequest,
  createUserInteraction,
  type ProviderRegistration,
  type UserInteractionProvider,
} from 'dsh-user-interaction';
import type { QuestionScope } from '../questions/question-scope.js';
import { promptResponseFor } from './prompt-response.js';
import { sessionNotFound, turnAlreadyRunning, unexpectedFailure } from './server-errors.js';
import { TurnUpdates } from './turn-updates.js';

/** What the agent of every session is made of; the server adds the id and the question service. */
export type SessionAgentOptions = Omit<AgentOptions, 'id' | 'interaction'>;

/** Options of one `AcpSession`. */
export interface AcpSessionOptions {
  /** The ACP session id; also the id of the session's agent, which its questions carry. */
  readonly sessionId: string;
  /** The session's working directory, as the client gave it. */
  readonly cwd: string;
  /** The connection's question UI, registered in this session's own question service. */
  readonly provider: UserInteractionProvider;
  readonly agent: SessionAgentOptions;
  /** Sends a `session/update` of this session to the client; must not throw. */
  readonly send: (update: SessionUpdate) => Promise<void>;
  /** Where the session is saved (its conversation so far, if loaded); none: in memory only. */
  readonly stored?: StoredSession;
  /** Whether the client takes `notice` updates (default: it does not). */
  readonly notices?: () => boolean;
  /** Runs when the session closes, after its turn ended (its MCP servers are stopped there). */
  readonly onClose?: () => Promise<void>;
}

/**
 * One ACP session: a chat agent with its own conversation and question service, running
 * one turn at a time, and the map from the agent's tool call ids to the ACP ones.
 */
export class AcpSession {
  readonly id: string;
  readonly cwd: string;
  readonly #agent: ChatAgent;
  readonly #registration: ProviderRegistration;
  readonly #send: (update: SessionUpdate) => Promise<void>;
  readonly #stored: StoredSession | undefined;
  readonly #tools: SessionAgentOptions['tools'];
  readonly #onClose: (() => Promise<void>) | undefined;
  readonly #updates: TurnUpdates;
  #turn:
    | {
        readonly controller: AbortController;
        readonly done: Promise<void>;
        /** A turn that went on after a restart, with no prompt of its own. */
        readonly resumed: boolean;
      }
    | undefined;
  #closed = false;
  /** Prompts waiting for the turn that went on after a restart to end (see `prompt`). */
  readonly #waitingPrompts = new Set<AbortController>();
  /** Set when the editor went away: nothing more of this session is saved (see `detach`). */
  #detached = false;

  constructor(options: AcpSessionOptions) {
    this.id = options.sessionId;
    this.cwd = options.cwd;
    this.#send = options.send;
    this.#stored = options.stored;
    this.#tools = options.agent.tools;
    this.#updates = new TurnUpdates(options.notices ?? (() => false));
    this.#onClose = options.onClose;
    const interaction = createUserInteraction();
    this.#registration = interaction.registerProvider(options.provider);
    const { stored } = options;
    try {
      this.#agent = createAgent({
        ...options.agent,
        id: options.sessionId,
        interaction,
        ...(stored !== undefined && {
          conversation: stored.entries,
          recorder: this.#gatedRecorder(stored),
        }),
      });
    } catch (error) {
      this.#registration();
      throw error;
    }
  }

  /**
   * Sends the conversation restored from the store as `session/update` notifications, in the
   * order it happened: each prompt as a user message, then what its turn streamed (thoughts,
   * text, tool calls with their results), with the tool call ids the live turns used. Stops
   * (resolving) once `signal` aborts.
   */
  async replay(signal?: AbortSignal): Promise<void> {
    const entries = this.#stored?.entries ?? [];
    const tools = this.#tools;
    for (const event of replayConversation(entries, tools === undefined ? {} : { tools })) {
      if (signal?.aborted === true) return;
      if (event.type === 'turn-end') {
        this.#updates.endTurn();
        continue;
      }
      const update: SessionUpdate | undefined =
        event.type === 'prompt'
          ? { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.text } }
          : this.#updateFor(event);
      if (update !== undefined) await this.#send(update);
    }
  }

  /**
   * The editor went away, or loads the session again: from now on nothing of this session is
   * saved, so that a question or an approval waiting for an answer stays in the file as waiting
   * (and is asked again when the session is loaded), rather than recorded as withdrawn. Call it
   * before its questions are withdrawn, then `close`.
   */
  detach(): void {
    this.#detached = true;
  }

  /** The store's recorder, until the session is detached. */
  #gatedRecorder(stored: StoredSession): StoredSession['recorder'] {
    const { recorder } = stored;
    return {
      add: (entry) => {
        if (!this.#detached) recorder.add(entry);
      },
      flush: () => (this.#detached ? Promise.resolve() : recorder.flush()),
      written: () => (this.#detached ? undefined : recorder.written?.()),
    };
  }

  /** Whether a turn is running (not counting one that went on after a restart: see `resume`). */
  get running(): boolean {
    return this.#turn !== undefined && !this.#turn.resumed;
  }

  /**
   * Goes on with the turn the program stopped in while a question or an approval waited (see
   * `ChatAgent.resume`): that question is posed again (a form, or a permission request), for
   * the same tool call, and the turn's updates follow as a prompt's do. There is no prompt to
   * answer at its end. A `session/prompt` meanwhile cancels it first (its question is
   * withdrawn), as does `session/cancel`. Resolves when it ended; at once when there is none.
   */
  async resume(): Promise<void> {
    if (this.#closed || this.#turn !== undefined || !this.#agent.resumable) return;
    await this.#runTurn(undefined, undefined);
  }

  /** Where a question or an approval of this session's agent appears: this session, next to its tool call. */
  scopeFor(request: Pick<AskUserQuestionRequest, 'agent'>): QuestionScope {
    const agentCallId = toolCallIdOf(request);
    const toolCallId =
      agentCallId === undefined ? undefined : this.#updates.toolCallIdOf(agentCallId);
    return toolCallId === undefined ? { sessionId: this.id } : { sessionId: this.id, toolCallId };
  }

  /**
   * Runs one turn for the prompt, streaming its events as session updates, and resolves
   * with the prompt response. `signal` (the request's own) cancels the turn like `cancel()`.
   */
  async prompt(text: string, signal: AbortSignal): Promise<PromptResponse> {
    if (this.#closed) throw sessionNotFound(this.id);
    // This prompt's own controller, from now: a session/cancel that comes while the turn that
    // went on after a restart is still ending cancels this prompt too.
    const controller = new AbortController();
    const resumed = this.#turn?.resumed === true ? this.#turn : undefined;
    if (resumed !== undefined) {
      // The person wrote instead of answering what the restart asked again: that turn ends.
      this.#waitingPrompts.add(controller);
      try {
        resumed.controller.abort();
        await resumed.done;
      } finally {
        this.#waitingPrompts.delete(controller);
      }
      if (this.#closed) throw sessionNotFound(this.id);
    }
    if (this.#turn !== undefined) throw turnAlreadyRunning(this.id);
    const end = await this.#runTurn(text, signal, controller);
    // Every turn ends with a turn-end event; a missing one is a bug of the loop.
    if (end === undefined) throw unexpectedFailure();
    return promptResponseFor(end);
  }

  /** Runs a turn (on `text`, or the one a restart goes on with), streaming its updates. */
  async #runTurn(
    text: string | undefined,
    signal: AbortSignal | undefined,
    controller = new AbortController(),
  ): Promise<TurnEndEvent | undefined> {
    let markDone!: () => void;
    this.#turn = {
      controller,
      done: new Promise<void>((resolve) => (markDone = resolve)),
      resumed: text === undefined,
    };
    let end: TurnEndEvent | undefined;
    try {
      // The turn's one controller: the agent uses this one rather than making a child of it,
      // and the request's signal aborts it (a turn resumed after a restart has none).
      const options = signal === undefined ? { controller } : { controller, signal };
      const turn =
        text === undefined ? this.#agent.resume(options) : this.#agent.run(text, options);
      for await (const event of turn) {
        if (event.type === 'turn-end') {
          end = event;
          continue;
        }
        const update = this.#updateFor(event);
        if (update !== undefined) await this.#send(update);
      }
    } finally {
      this.#updates.endTurn();
      this.#turn = undefined;
      markDone();
    }
    return end;
  }

  /** Cancels the running turn, if any: its question is withdrawn and it ends `cancelled`. */
  cancel(reason?: unknown): void {
    this.#turn?.controller.abort(reason);
    for (const waiting of this.#waitingPrompts) waiting.abort(reason);
  }

  /**
   * Cancels the running turn, waits until it has sent its last update, and frees the session:
   * its questions are no longer routed and later prompts fail as for an unknown session. A
   * saved session's file is closed (its history stays) and its lock released.
   */
  async close(reason?: unknown): Promise<void> {
    this.#closed = true;
    const turn = this.#turn;
    if (turn !== undefined) {
      turn.controller.abort(reason);
      await turn.done;
    }
    this.#registration();
    await this.#onClose?.();
    await this.#stored?.close();
  }

  #updateFor(event: Exclude<AgentEvent, TurnEndEvent>): SessionUpdate | undefined {
    return this.#updates.updateFor(event);
  }
}
