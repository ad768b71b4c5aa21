import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from './support/documents.ts';

// Every ```ts block of every README is compiled as a person would: in a fresh project set up as
// the READMEs say (strict, module nodenext, target ES2022, so that tsc lowers `using` for Node
// 20), against the built packages, with the repository's TypeScript, in one program. Each block
// is then run on this Node, with a time limit, unless the line before it says
// `<!-- not run: why -->`. A block that goes on from the one before it says
// `<!-- continues the block above -->` and is compiled and run with it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** The tsconfig the READMEs tell users to use. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

/**
 * The same, with the stricter checks TypeScript 5.9's `tsc --init` turns on: a person who starts a
 * project that way passes possibly-missing values to optional options, and indexes arrays.
 */
const TSCONFIG_INIT = {
  ...TSCONFIG,
  compilerOptions: {
    ...TSCONFIG.compilerOptions,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: 'force',
    noEmit: true,
  },
};

interface Block {
  /** Where it is: `packages/x/README.md:31`. */
  readonly where: string;
  readonly code: string;
  /** Why it is not run, or `undefined`: it is. */
  readonly notRun: string | undefined;
}

function readmes(): string[] {
  return documents(ROOT);
}

/** The ```ts blocks of a README, each joined with those that continue it. */
function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const before = text.slice(0, match.index).trimEnd().split('\n').at(-1) ?? '';
    const line = text.slice(0, match.index).split('\n').length;
    const code = match[1] ?? '';
    const previous = blocks.at(-1);
    if (before === '<!-- continues the block above -->' && previous !== undefined) {
      blocks[blocks.length - 1] = { ...previous, code: `${previous.code}\n${code}` };
      continue;
    }
    const notRun = /^<!-- not run: (.+) -->$/.exec(before)?.[1];
    blocks.push({ where: `${file}:${line}`, code, notRun });
  }
  return blocks;
}

const blocks = readmes().flatMap(blocksOf);
const fileName = (index: number) => `block-${String(index + 1).padStart(2, '0')}`;

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv },
) {
  return new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) => {
    const child = execFile(
      command,
      args,
      { ...options, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, signal: child.signalCode, output: stdout + stderr });
      },
    );
    child.stdin?.end();
  });
}

let project: string;
let compiled: { code: number | null; output: string };
let compiledInit: { code: number | null; output: string };

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'dsh-readme-'));
  mkdirSync(join(project, 'src'));
  mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
  mkdirSync(join(project, 'node_modules/@agentclientprotocol'));
  mkdirSync(join(project, 'node_modules/@modelcontextprotocol'));
  // The packages as installed from the registry would be: their package.json and dist.
  const packages = readmes()
    .filter((file) => file.endsWith('/README.md'))
    .map((file) => file.replace(/\/README\.md$/, ''));
  const links: [string, string][] = [
    ...packages.map((folder): [string, string] => [
      JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')).name,
      folder,
    ]),
    ['@types/node', 'node_modules/@types/node'],
    ['@agentclientprotocol/sdk', 'packages/acp/node_modules/@agentclientprotocol/sdk'],
    ['@modelcontextprotocol/client', 'packages/mcp/node_modules/@modelcontextprotocol/client'],
  ];
  for (const [name, path] of links) {
    symlinkSync(realpathSync(join(ROOT, path)), join(project, 'node_modules', name), 'dir');
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  blocks.forEach((block, index) => {
    // A block without imports is a module all the same, as every file of an ESM project is.
    const code = /^(import|export) /m.test(block.code) ? block.code : `${block.code}\nexport {};\n`;
    writeFileSync(join(project, 'src', `${fileName(index)}.ts`), code);
  });
  writeFileSync(join(project, 'tsconfig.init.json'), JSON.stringify(TSCONFIG_INIT));
  [compiled, compiledInit] = await Promise.all(
    ['tsconfig.json', 'tsconfig.init.json'].map((config) =>
      run(process.execPath, [TSC, '-p', join(project, config)], { cwd: project, timeout: 60_000 }),
    ),
  );
}, 90_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

/** The compiler's messages about one block, its lines numbered as in the README. */
function diagnosticsOf(index: number, output = compiled.output): string[] {
  const block = blocks[index] as Block;
  const [file, line] = block.where.split(':') as [string, string];
  return output
    .split('\n')
    .filter((message) => message.startsWith(`src/${fileName(index)}.ts(`))
    .map((message) =>
      message.replace(
        /^src\/[^(]+\((\d+),(\d+)\)/,
        (_all, row: string, column: string) => `${file}:${Number(line) + Number(row)}:${column}`,
      ),
    );
}

describe('the README examples', () => {
  it('are found', () => {
    expect(blocks.length).toBeGreaterThan(10);
    // A package's second document is read too: the terminal agent has its own.
    expect(blocks.map((block) => block.where)).toContainEqual(
      expect.stringMatching(/^packages\/stdio-agent\/terminal-agent\.md:\d+$/),
    );
    expect(relative(ROOT, TSC)).toBe('node_modules/typescript/bin/tsc');
  });

  it.each(blocks.map((block, index) => [block.where, index] as const))(
    '%s compiles in a strict nodenext project',
    (_where, index) => {
      expect(diagnosticsOf(index)).toEqual([]);
    },
  );

  it.each(blocks.map((block, index) => [block.where, index] as const))(
    '%s compiles under tsc --init defaults too (exactOptionalPropertyTypes, noUncheckedIndexedAccess)',
    (_where, index) => {
      expect(diagnosticsOf(index, compiledInit.output)).toEqual([]);
    },
  );

  it('say which target lets Node 20 run `using`, wherever a package document has examples', () => {
    for (const file of readmes().filter((name) => name !== 'README.md')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (!text.includes('```ts')) continue;
      expect(text, file).toContain('`"target": "ES2022"`');
      expect(text, file).toContain('`"module": "nodenext"`');
    }
    expect(TSCONFIG.compilerOptions.target).toBe('ES2022');
  });

  it('leave nothing else for the compiler to say', () => {
    const others = compiled.output
      .split('\n')
      .filter(
        (line) =>
          line.trim() !== '' && !/^src\/block-\d+\.ts\(/.test(line) && !line.startsWith(' '),
      );
    expect(others).toEqual([]);
  });

  const runnable = blocks.flatMap((block, index) =>
    block.notRun === undefined ? [[block.where, index] as const] : [],
  );
  it.each(runnable)('%s runs to its end on this Node', async (_where, index) => {
    // No model key (the offline demo), and saved conversations in the project's own folder.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DEEPSEEK_API_KEY: '',
      DSH_API_KEY: '',
      XDG_STATE_HOME: join(project, 'state'),
    };
    delete env.NODE_OPTIONS;
    const result = await run(process.execPath, [join('dist', `${fileName(index)}.js`)], {
      cwd: project,
      timeout: 15_000,
      env,
    });
    expect(result.output).not.toContain('SyntaxError');
    expect(result.signal, result.output).toBeNull();
    expect(result.code, result.output).toBe(0);
  });
});
