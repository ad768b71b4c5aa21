import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../support/bin-process.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Every module specifier `file` imports at load time (static imports and re-exports), recursively. */
function loadedAtImport(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(
    /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g,
  )) {
    const specifier = (match[1] ?? match[2]) as string;
    if (specifier.startsWith('.')) loadedAtImport(join(dirname(file), specifier), seen);
    else seen.add(specifier);
  }
  return seen;
}

beforeAll(assertBuilt);

describe('what importing the question UI loads', () => {
  it('loads no part of the agent loop, which only the terminal agent needs', () => {
    const root = [...loadedAtImport(join(dist, 'index.js'))];
    expect(root.filter((specifier) => specifier.startsWith('dsh-agent'))).toEqual([]);
    // Of the contract, only what a provider needs: not its service, its tool or its checks.
    expect(root.filter((specifier) => specifier.startsWith('dsh-user-interaction'))).toEqual([
      'dsh-user-interaction/provider',
    ]);
    // The terminal agent, on its own subpath, does load it.
    const agent = [...loadedAtImport(join(dist, 'terminal-agent.js'))];
    expect(agent.some((specifier) => specifier.startsWith('dsh-agent'))).toBe(true);
  });
});

describe('what the terminal agent loads before its first question', () => {
  it('loads no MCP client: dsh-mcp is imported only when servers are configured', () => {
    for (const entry of ['bin.js', 'terminal-agent.js']) {
      const loaded = [...loadedAtImport(join(dist, entry))];
      expect(loaded.filter((specifier) => specifier.startsWith('dsh-mcp'))).toEqual([]);
    }
    // It is one import() away, from the program and from the session that starts servers.
    const code = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(dist, file), 'utf8'))
      .join('\n');
    expect(code).toContain('import("dsh-mcp")');
    expect(code).toMatch(/import\("\.\/mcp-servers-[\w-]+\.js"\)/);
  });

  it('loads no MCP client for a workspace without a .mcp.json: the file is looked for first', () => {
    // Every start in a folder (not the demo) reads the project's file: that alone must not load
    // dsh-mcp, which only a file found there needs, to show what it names or to start it.
    const chunks = readdirSync(dist).filter(
      (file) => file.startsWith('project-mcp-') && file.endsWith('.js'),
    );
    expect(chunks).toHaveLength(1);
    const chunk = join(dist, chunks[0] as string);
    const loaded = [...loadedAtImport(chunk)];
    expect(loaded.filter((specifier) => specifier.startsWith('dsh-mcp'))).toEqual([]);
    expect(readFileSync(chunk, 'utf8')).toContain('import("dsh-mcp")');
  });

  it('loads the session and its question UI while the sandbox is probed, not before the program runs', () => {
    const atStart = [...loadedAtImport(join(dist, 'bin.js'))]
      .filter((file) => file.startsWith(dist))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(atStart).toContain('function chooseSession(');
    expect(atStart).not.toContain('function runTerminalAgent(');
    expect(atStart).toMatch(/import\("\.\/terminal-agent-[\w-]+\.js"\)/);
  });
});

describe('what a piped question loads', () => {
  it('loads no menu, set of questions or approval: they are imported when first needed', () => {
    const files = [...loadedAtImport(join(dist, 'index.js'))].filter((file) =>
      file.startsWith(dist),
    );
    const code = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    // The one-question line session is there; the other sessions are not.
    expect(code).toContain('function startLineSession(');
    for (const session of [
      'startInteractiveSession',
      'startBatchSession',
      'startLineBatchSession',
      'startApprovalSession',
      'startLineApprovalSession',
    ]) {
      expect(code).not.toContain(`function ${session}(`);
    }
    // They are one import() away.
    expect(code).toMatch(/import\("\.\/screens-[\w-]+\.js"\)/);
  });
});

describe('what importing the question UI runs', () => {
  it('makes no Intl formatter: the first one of a process costs every start about 20 ms', () => {
    // A fresh process, so that nothing before the import has made one already.
    const probe = `
      const made = [];
      for (const name of ['NumberFormat', 'DateTimeFormat', 'Segmenter', 'Collator', 'PluralRules']) {
        const Original = Intl[name];
        Intl[name] = new Proxy(Original, {
          construct(target, args) { made.push(name); return Reflect.construct(target, args); },
          apply(target, self, args) { made.push(name); return Reflect.apply(target, self, args); },
        });
      }
      for (const type of [Number, Date, BigInt]) {
        const original = type.prototype.toLocaleString;
        type.prototype.toLocaleString = function (...args) {
          made.push(type.name + '.toLocaleString');
          return original.apply(this, args);
        };
      }
      await import(${JSON.stringify(join(dist, 'index.js'))});
      process.stdout.write(JSON.stringify(made));
    `;
    const made = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
    });
    expect(JSON.parse(made)).toEqual([]);
  });
});
