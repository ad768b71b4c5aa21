import { PassThrough, Writable } from 'node:stream';
import xterm from '@xterm/headless';

const { Terminal } = xterm;
type XTerm = InstanceType<typeof Terminal>;

/** Bytes a terminal sends for each key. */
export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  home: '\u001b[H',
  end: '\u001b[F',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
  enter: '\r',
  escape: '\u001b',
  backspace: '\u007f',
  delete: '\u001b[3~',
  tab: '\t',
  shiftTab: '\u001b[Z',
  ctrlA: '\u0001',
  ctrlC: '\u0003',
  ctrlE: '\u0005',
  ctrlK: '\u000b',
  ctrlN: '\u000e',
  ctrlP: '\u0010',
  ctrlU: '\u0015',
  ctrlW: '\u0017',
  ctrlY: '\u0019',
  pasteStart: '\u001b[200~',
  pasteEnd: '\u001b[201~',
} as const;

/** A PassThrough that says it is a terminal and records raw mode. */
export type FakeInput = PassThrough & {
  isTTY: boolean;
  isRaw: boolean;
  setRawMode(mode: boolean): FakeInput;
};

/** A Writable that says it is a terminal of a given size. */
export type FakeOutput = Writable & {
  isTTY: boolean;
  columns: number;
  rows: number;
  getColorDepth(): number;
};

/** How long `waitFor` waits for its text before it fails, saying what is on the screen. */
const WAIT_MS = 5_000;

/**
 * Resolves with `check()`'s result as soon as it gives one: now, or after a later write of
 * `output` (each check waits for `ready` first). Rejects with `describe()` after `WAIT_MS`.
 */
function waitForOutput<T>(
  output: Writable,
  ready: () => Promise<void>,
  check: () => Promise<T | undefined>,
  describe: () => Promise<string>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      output.off('written', attempt);
    };
    const attempt = (): void => {
      void ready()
        .then(check)
        .then((found) => {
          if (done || found === undefined) return;
          finish();
          resolve(found);
        }, reject);
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      void describe().then((text) => reject(new Error(text)), reject);
    }, WAIT_MS);
    output.on('written', attempt);
    attempt();
  });
}

/** Options of `createFakeTerminal`. */
export interface FakeTerminalOptions {
  readonly columns?: number;
  readonly rows?: number;
  readonly colorDepth?: number;
  /** Feed the output to a terminal emulator (off for tests that only count). */
  readonly emulate?: boolean;
}

/**
 * Fake TTY streams whose output is fed to a headless xterm, so a test can read the screen a
 * person would see.
 */
export class FakeTerminal {
  readonly input: FakeInput;
  readonly output: FakeOutput;
  readonly terminal: XTerm;
  /** Every `setRawMode` call, in order. */
  readonly rawModes: boolean[] = [];
  /** Everything written, as written. */
  written = '';
  /** How many times `write` was called on the output. */
  writes = 0;
  private readonly writeWaiters: (() => void)[] = [];

  constructor(options: FakeTerminalOptions = {}) {
    const columns = options.columns ?? 80;
    const rows = options.rows ?? 24;
    const emulate = options.emulate ?? true;
    this.terminal = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 1000 });
    const input = new PassThrough() as FakeInput;
    input.isTTY = true;
    input.isRaw = false;
    input.setRawMode = (mode: boolean) => {
      this.rawModes.push(mode);
      input.isRaw = mode;
      return input;
    };
    this.input = input;
    const output = new Writable({
      decodeStrings: false,
      write: (chunk: string | Buffer, _encoding, callback) => {
        const text = chunk.toString();
        this.written += text;
        this.writes++;
        if (emulate) this.terminal.write(text);
        for (const resolve of this.writeWaiters.splice(0)) resolve();
        callback();
        output.emit('written');
      },
    }) as FakeOutput;
    output.isTTY = true;
    output.columns = columns;
    output.rows = rows;
    output.getColorDepth = () => options.colorDepth ?? 8;
    this.output = output;
  }

  /** Waits until the emulator has processed everything written so far. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.terminal.write('', resolve));
  }

  /** The visible screen, one string per row, trailing spaces removed. */
  async screen(): Promise<string[]> {
    await this.flush();
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) {
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return lines;
  }

  /** The visible screen as one text, without the blank rows at the bottom. */
  async text(): Promise<string> {
    const lines = await this.screen();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /**
   * Waits until the screen contains `text`. A question is drawn only once it takes keys, so
   * keys pressed as soon as it shows are its own, as they are for a person.
   */
  async waitFor(text: string | RegExp): Promise<string> {
    const shows = (current: string): boolean =>
      typeof text === 'string' ? current.includes(text) : text.test(current);
    const screen = await waitForOutput(
      this.output,
      () => this.flush(),
      async () => {
        const current = await this.text();
        return shows(current) ? current : undefined;
      },
      async () => `The screen does not show ${String(text)}:\n${await this.text()}`,
    );
    return screen;
  }

  /** Resolves within the next write to the output, before anything else can run. */
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.writeWaiters.push(resolve));
  }

  /** Types keys, one chunk each. */
  press(...keys: string[]): void {
    for (const key of keys) this.input.write(key);
  }

  /** Changes the size of the terminal and tells the output, as a SIGWINCH would. */
  async resize(columns: number, rows: number): Promise<void> {
    await this.flush();
    this.terminal.resize(columns, rows);
    this.output.columns = columns;
    this.output.rows = rows;
    this.output.emit('resize');
  }

  /** Whether the emulator's cursor is hidden (DECTCEM). */
  cursorHidden(): boolean {
    const core = (
      this.terminal as unknown as { _core?: { coreService?: { isCursorHidden?: boolean } } }
    )._core;
    const hidden = core?.coreService?.isCursorHidden;
    if (typeof hidden !== 'boolean') throw new Error('This xterm version hides its cursor state.');
    return hidden;
  }

  /** The cursor's position on the screen. */
  cursor(): { x: number; y: number } {
    const buffer = this.terminal.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  dispose(): void {
    this.terminal.dispose();
  }
}

/** A fresh fake terminal. */
export function createFakeTerminal(options: FakeTerminalOptions = {}): FakeTerminal {
  return new FakeTerminal(options);
}

/** The environment tests run the UI in: a colour terminal, no colour overrides. */
export const TEST_ENV: NodeJS.ProcessEnv = { TERM: 'xterm-256color' };

/** Plain pipes, as in `printf '1\n' | program | cat`: no terminal on either side. */
export interface Pipes {
  readonly input: PassThrough;
  readonly output: Writable;
  /** Everything written so far. */
  text(): string;
  /** Waits until the output contains `text`. */
  waitFor(text: string): Promise<string>;
}

/** Fresh pipes for line mode. */
export function createPipes(): Pipes {
  let written = '';
  const input = new PassThrough();
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      written += chunk.toString();
      callback();
      output.emit('written');
    },
  });
  return {
    input,
    output,
    text: () => written,
    waitFor: (text) =>
      waitForOutput(
        output,
        async () => {},
        async () => (written.includes(text) ? written : undefined),
        async () => `The output does not show ${text}:\n${written}`,
      ),
  };
}
