import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MenuNeeds, MIN_LIST_ROWS, planMenu } from '../../src/question-ui/menu/menu-layout.js';

describe('planMenu', () => {
  const needs = fc.record({
    height: fc.integer({ min: 1, max: 40 }),
    rows: fc.integer({ min: 1, max: 60 }),
    header: fc.boolean(),
    questionRows: fc.integer({ min: 1, max: 30 }),
    noticeRows: fc.integer({ min: 0, max: 1 }),
    hintRows: fc.integer({ min: 1, max: 3 }),
    detailRows: fc.integer({ min: 0, max: 8 }),
    tallest: fc.integer({ min: 0, max: 8 }),
  });

  function plan(input: Omit<MenuNeeds, 'tallestDetails'> & { tallest: number }) {
    let asked = false;
    const tallest = Math.max(input.tallest, input.detailRows);
    const result = planMenu({
      ...input,
      tallestDetails: () => {
        asked = true;
        return tallest;
      },
    });
    const used =
      (result.header ? 1 : 0) +
      result.questionRows +
      (result.gap ? 1 : 0) +
      result.visible +
      (result.indicator ? 1 : 0) +
      (result.paneRows > 0 ? result.paneRows + 1 : 0) +
      result.noticeRows +
      result.hintRows;
    return { result, used, asked };
  }

  it('never takes more rows than the screen has, and always shows the focused row', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result, used } = plan(input);
        expect(used).toBeLessThanOrEqual(input.height);
        expect(result.visible).toBeGreaterThanOrEqual(1);
        expect(result.visible).toBeLessThanOrEqual(input.rows);
        expect(result.questionRows).toBeLessThanOrEqual(input.questionRows);
        expect(result.hintRows).toBeLessThanOrEqual(input.hintRows);
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves no row unused while rows of the list are hidden or the question is cut', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result, used, asked } = plan(input);
        if (result.visible < input.rows || result.questionRows < input.questionRows) {
          expect(used).toBe(input.height);
          expect(result.paneRows).toBeLessThanOrEqual(input.detailRows);
        }
        // The tallest details of every option are read only when every option is on screen.
        if (asked) expect(result.visible).toBe(input.rows);
      }),
      { numRuns: 2_000 },
    );
  });

  it('shows the whole question when it fits beside the focused row and one line of hints', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result } = plan(input);
        const least =
          (input.header ? 1 : 0) +
          input.questionRows +
          1 +
          (input.rows > 1 ? 1 : 0) +
          input.noticeRows +
          1;
        if (least <= input.height) {
          expect(result.questionRows).toBe(input.questionRows);
          expect(result.header).toBe(input.header);
          expect(result.hintRows).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the pane more than the focused option needs only when nothing else is short', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result } = plan(input);
        if (result.paneRows > input.detailRows) {
          expect(result.visible).toBe(input.rows);
          expect(result.questionRows).toBe(input.questionRows);
          expect(result.hintRows).toBe(input.hintRows);
          expect(result.gap).toBe(true);
        }
        // Details never take the rows of the list's minimum.
        if (result.paneRows > 0) {
          expect(result.visible).toBeGreaterThanOrEqual(Math.min(input.rows, MIN_LIST_ROWS));
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
