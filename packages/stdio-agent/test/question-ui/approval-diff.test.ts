import type { PermissionRequest } from 'dsh-user-interaction';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalView, loadDiff } from '../../src/question-ui/approval/approval-view.js';

function edit(oldText: string | null, newText: string): PermissionRequest {
  return {
    toolCallId: 'e',
    title: 'Edit big.txt',
    kind: 'edit',
    paths: ['/w/big.txt'],
    edit: { path: '/w/big.txt', oldText, newText },
  };
}

/** The diff the approval shows, as a unified patch. */
async function shownPatch(oldText: string | null, newText: string): Promise<string> {
  const view = approvalView(edit(oldText, newText), await loadDiff());
  const lines = view.body.filter((line) => line.kind !== 'file').map((line) => line.text);
  return `--- a\n+++ b\n${lines.join('\n')}\n`;
}

const numbered = (count: number) =>
  `${Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n')}\n`;

describe('the diff of an approval', () => {
  it('shows a change of one line in a file of megabytes, numbered where it is', async () => {
    const oldText = numbered(200_000);
    expect(oldText.length).toBeGreaterThan(2_000_000);
    const newText = oldText.replace('\nline 150000\n', '\nline one hundred and fifty thousand\n');
    const view = approvalView(edit(oldText, newText), await loadDiff());
    expect(view.body.map((line) => line.text)).toEqual([
      '/w/big.txt',
      '@@ -149997,7 +149997,7 @@',
      ' line 149997',
      ' line 149998',
      ' line 149999',
      '-line 150000',
      '+line one hundred and fifty thousand',
      ' line 150001',
      ' line 150002',
      ' line 150003',
    ]);
  });

  it('still sums up a change too large to read', async () => {
    const oldText = numbered(200_000);
    const newText = oldText.replaceAll('line', 'row');
    const view = approvalView(edit(oldText, newText), await loadDiff());
    expect(view.body.map((line) => line.text)).toEqual([
      '/w/big.txt',
      '200000 lines become 200000 lines: too large to show as a diff',
    ]);
  });

  it('is a patch that turns the old text into the new one, whatever the two texts', async () => {
    const diff = await loadDiff();
    // The whole texts diffed, shown the same way: what the approval showed before it set the
    // shared lines aside.
    const wholePatch = (oldText: string, newText: string) => {
      const { hunks } = diff.structuredPatch('f', 'f', oldText, newText, '', '', { context: 3 });
      const lines = hunks.flatMap((hunk) => [
        `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
        ...hunk.lines.filter((line) => !line.startsWith('\\')),
      ]);
      return `--- a\n+++ b\n${lines.join('\n')}\n`;
    };
    const text = fc
      .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'ab', ''), { maxLength: 40 }), fc.boolean())
      .map(([lines, ended]) => lines.join('\n') + (ended && lines.length > 0 ? '\n' : ''));
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(text, text, async (oldText, newText) => {
        if (oldText === newText) return;
        // (jsdiff numbers an insertion into an empty text so that its own patch misplaces it.)
        if (diff.applyPatch(oldText, wholePatch(oldText, newText)) !== newText) return;
        checked++;
        expect(diff.applyPatch(oldText, await shownPatch(oldText, newText))).toBe(newText);
      }),
      { numRuns: 1000 },
    );
    expect(checked).toBeGreaterThan(300);
  });
});
