// `search` matches in a worker thread: JavaScript's regular expressions backtrack, and a pattern
// such as `(a+)+$` over a line of 30 a's holds the thread that runs it for minutes. Off the main
// thread the agent stays free (a cancel, a Ctrl+C are seen at once), and a thread can be
// terminated where a running match cannot: at a cancel, or when one file takes over the limit.
import { Worker } from 'node:worker_threads';
import type { FoundFile } from './walk-files.js';

/** What the worker is given at its start. */
interface SearchWorkerData {
  readonly pattern: string;
  readonly flags: string;
  /** The largest file read, in bytes; the longest line shown, in characters; matches per file. */
  readonly largest: number;
  readonly lineLength: number;
  readonly perFile: number;
  /** One Int32: the files the worker has finished, so the main thread sees a file that hangs. */
  readonly progress: SharedArrayBuffer;
}

/**
 * The worker's body, run from its source text: it uses nothing from outside but its arguments
 * (not even `require`, which a bundler renames, and a module has not). For each list of files it is sent, it answers
 * with their matching lines, `path:line: text`.
 */
function searchInWorker(
  threads: typeof import('node:worker_threads'),
  fs: typeof import('node:fs'),
): void {
  const { parentPort, workerData } = threads;
  if (parentPort === null) return;
  const data = workerData as SearchWorkerData;
  const regex = new RegExp(data.pattern, data.flags);
  // The same expression over a whole file, `^` and `$` at each line: does any line match?
  const anyLine = new RegExp(data.pattern, `${data.flags}m`);
  const done = new Int32Array(data.progress);
  /**
   * The text of a file when it is text and not too large. A FIFO never blocks (`O_NONBLOCK`); a
   * symbolic link is not followed (`O_NOFOLLOW`): a link to a file outside the workspace would
   * let a search read, unasked, what `read_file` asks for.
   */
  const textOf = (path: string): string | undefined => {
    let fd: number | undefined;
    try {
      const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
      fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
      const stats = fs.fstatSync(fd);
      if (!stats.isFile() || stats.size > data.largest) return undefined;
      const bytes = Buffer.allocUnsafe(stats.size);
      let read = 0;
      while (read < bytes.length) {
        const got = fs.readSync(fd, bytes, read, bytes.length - read, read);
        if (got === 0) break;
        read += got;
      }
      const text = bytes.subarray(0, read);
      // A NUL in the first bytes says binary, as grep decides.
      if (text.subarray(0, 8_192).includes(0)) return undefined;
      return text.toString('utf8');
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  };
  const matchesOf = (relative: string, path: string, into: string[]): void => {
    const text = textOf(path);
    // Most files do not match at all: one test of the whole text says so.
    if (text === undefined || !anyLine.test(text)) return;
    let count = 0;
    let start = 0;
    for (let line = 1; start <= text.length && count < data.perFile; line++) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const content = text.slice(start, end);
      if (regex.test(content)) {
        const shown =
          content.length > data.lineLength ? `${content.slice(0, data.lineLength)}…` : content;
        into.push(`${relative}:${line}: ${shown}`);
        count++;
      }
      if (newline === -1) break;
      start = newline + 1;
    }
  };
  // The lines of each file are sent as soon as it is done (a file that hangs keeps those before),
  // then `null` once the list is.
  parentPort.on('message', (files: readonly FoundFile[]) => {
    for (const file of files) {
      const lines: string[] = [];
      matchesOf(file.relative, file.path, lines);
      Atomics.add(done, 0, 1);
      if (lines.length > 0) parentPort.postMessage(lines);
    }
    parentPort.postMessage(null);
  });
  // Ready: the time limit counts from here, not from the thread's start.
  parentPort.postMessage('ready');
}

// `import()` works whether Node reads the text as a script or, under `--input-type=module`
// (which a worker inherits), as a module; `require` only in a script.
const SOURCE = `Promise.all([import('node:worker_threads'), import('node:fs')]).then(([threads, fs]) => (${searchInWorker.toString()})(threads, fs));`;

/**
 * What one list of files gave: its lines, or why the search ended before (with the lines of
 * the files before the one that took too long).
 */
export type SearchOutcome =
  | { readonly lines: readonly string[] }
  | { readonly slow: string; readonly lines: readonly string[] }
  | { readonly cancelled: true }
  | { readonly failed: Error };

/** A search running in its worker thread. */
export interface FileSearch {
  /** The matching lines of `files`, in order, once those sent before are done. Never rejects. */
  match(files: readonly FoundFile[]): Promise<SearchOutcome>;
  /** Ends the worker; every list not answered gets the outcome that ended it, or a cancel. */
  close(): Promise<void>;
}

/** Options of `startFileSearch`. */
export interface FileSearchOptions extends Omit<SearchWorkerData, 'progress'> {
  /** The time one file may take, in milliseconds, before the search stops there (`slow`). */
  readonly fileTimeLimit: number;
  readonly signal: AbortSignal;
}

/** Starts a worker thread that searches the files it is given; see `FileSearch`. */
export function startFileSearch(options: FileSearchOptions): FileSearch {
  const { fileTimeLimit, signal, ...rest } = options;
  const progress = new SharedArrayBuffer(4);
  const done = new Int32Array(progress);
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { ...rest, progress } satisfies SearchWorkerData,
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  /** The lists sent and not answered, in order, with the count of files sent before each. */
  const waiting: {
    files: readonly FoundFile[];
    before: number;
    lines: string[];
    settle: (outcome: SearchOutcome) => void;
  }[] = [];
  let sent = 0;
  let ended: SearchOutcome | undefined;
  /** Whether the thread is ready (its time limit does not count its start). */
  let online = false;
  let seen = 0;
  let seenAt = performance.now();
  const end = (outcome: SearchOutcome): void => {
    if (ended !== undefined) return;
    ended = outcome;
    clearInterval(watchdog);
    signal.removeEventListener('abort', onAbort);
    void worker.terminate();
    for (const list of waiting.splice(0))
      list.settle('slow' in outcome ? { ...outcome, lines: list.lines } : outcome);
  };
  const onAbort = (): void => end({ cancelled: true });
  signal.addEventListener('abort', onAbort, { once: true });
  const watchdog = setInterval(
    () => {
      const now = performance.now();
      const finished = Atomics.load(done, 0);
      if (!online || waiting.length === 0 || finished !== seen) {
        seen = finished;
        seenAt = now;
      } else if (now - seenAt >= fileTimeLimit) {
        const head = waiting[0] as (typeof waiting)[number];
        end({ slow: head.files[finished - head.before]?.relative ?? '', lines: [] });
      }
    },
    Math.max(1, Math.floor(fileTimeLimit / 4)),
  );
  worker.on('message', (lines: string[] | null | 'ready') => {
    if (lines === 'ready') online = true;
    else if (lines !== null) waiting[0]?.lines.push(...lines);
    else {
      const list = waiting.shift();
      list?.settle({ lines: list.lines });
    }
  });
  worker.on('error', (error) => end({ failed: error }));
  worker.once('exit', () =>
    end({ failed: new Error('The search thread ended before it answered.') }),
  );
  if (signal.aborted) end({ cancelled: true });
  return {
    match(files) {
      if (ended !== undefined) return Promise.resolve(ended);
      return new Promise((settle) => {
        waiting.push({ files, before: sent, lines: [], settle });
        sent += files.length;
        worker.postMessage(files);
      });
    },
    async close() {
      end({ cancelled: true });
      await worker.terminate();
    },
  };
}
