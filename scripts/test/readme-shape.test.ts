import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documents } from './support/documents.ts';

// Every package document reads the same way: how to install, a usage example, the API, the keys
// where a person presses any, and the license; nothing else at the top level.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHAPE = /^Install,Usage,API,(Keys,)?License$/;

/** The `## ` headings of a Markdown text, outside code blocks. */
function topHeadings(text: string): string[] {
  let inCode = false;
  const headings: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && line.startsWith('## ')) headings.push(line.slice(3).trim());
  }
  return headings;
}

const packageDocuments = documents(ROOT).filter((file) => file !== 'README.md');

describe('the package documents', () => {
  it('are found, the terminal agent’s own included', () => {
    expect(packageDocuments).toContain('packages/stdio-agent/README.md');
    expect(packageDocuments).toContain('packages/stdio-agent/terminal-agent.md');
    expect(packageDocuments.length).toBeGreaterThanOrEqual(6);
  });

  it.each(packageDocuments)('%s has the sections Install, Usage, API, Keys, License', (file) => {
    const headings = topHeadings(readFileSync(`${ROOT}${file}`, 'utf8'));
    expect(headings.join(','), file).toMatch(SHAPE);
  });

  it('tells a heading in a code block from a section', () => {
    expect(topHeadings('## Install\n```sh\n## not a section\n```\n## Usage')).toEqual([
      'Install',
      'Usage',
    ]);
  });

  it('link the terminal agent’s document from the package README, and back', () => {
    const readme = readFileSync(`${ROOT}packages/stdio-agent/README.md`, 'utf8');
    const agent = readFileSync(`${ROOT}packages/stdio-agent/terminal-agent.md`, 'utf8');
    expect(readme).toContain('](terminal-agent.md)');
    expect(agent).toContain('](README.md)');
  });

  it('run only what the clone has: every `pnpm run NAME` is a script, no npx of an unpublished name', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: object }).scripts,
    );
    for (const file of documents(ROOT)) {
      const text = readFileSync(`${ROOT}${file}`, 'utf8');
      for (const [, name] of text.matchAll(/pnpm run ([\w:-]+)/g)) {
        expect(scripts, `${file}: pnpm run ${name}`).toContain(name);
      }
      // Not on npm yet (issue 34): a command that fetches them is said to come later, or not at all.
      for (const line of text.split('\n')) {
        if (/npx (--yes )?dsh-|"npx", "args": \["--yes", "dsh-/.test(line)) {
          expect(line, file).toMatch(/[Oo]nce published|E404|not published/);
        }
      }
    }
  });
});
