/** What the layout of a question depends on, in screen rows. */
export interface MenuNeeds {
  /** Rows the frame may take. */
  readonly height: number;
  /** Rows of the list: the options and the custom row (the editor alone, for a free-form question). */
  readonly rows: number;
  /** A filter narrows the list: the line under it says so, even when every row is shown. */
  readonly filtered?: boolean;
  readonly header: boolean;
  /** The question, wrapped. */
  readonly questionRows: number;
  readonly noticeRows: number;
  /** The key hints, wrapped, with none left out. */
  readonly hintRows: number;
  /** The focused option's details: its whole label when cut, then its description. */
  readonly detailRows: number;
  /** The tallest details of any option; asked only when every row of the list is on screen. */
  tallestDetails(): number;
}

/** How many rows each part of the frame gets; together never more than the height. */
export interface MenuPlan {
  /** Whether the header has its line (it gives way to the question on a screen of a few rows). */
  readonly header: boolean;
  /** Lines of the question shown; fewer than it has means it is cut, and ends with `…`. */
  readonly questionRows: number;
  readonly noticeRows: number;
  /** A blank line between the question and the list. */
  readonly gap: boolean;
  /** Rows of the list in the window; the focused row is always one of them. */
  readonly visible: number;
  /** The line that says how many rows are above and below the window (and what a filter found). */
  readonly indicator: boolean;
  /** Lines of the details pane under its blank separator; 0: no pane. */
  readonly paneRows: number;
  readonly hintRows: number;
}

/** Rows the list keeps even when a long question competes for the screen. */
export const MIN_LIST_ROWS = 4;
/** Lines of details that come before the hints' second line and more rows of a long list. */
export const DETAIL_ROWS = 3;

/**
 * Shares the rows among the parts of the frame, most important first, each part taking what
 * is left: the focused row; the header and the question's first line; the notice; one line
 * of hints; the line that says more rows are hidden; the whole question, when it can be
 * shown whole; the list's minimum rows; as much of a longer question as fits; up to
 * `DETAIL_ROWS` of the focused option's details; the rest of the hints; the gap under the
 * question; the rest of the list; the rest of the details. Last, when every row of the list
 * is on screen and rows are still free, the pane grows to the tallest details of any option,
 * so that the hints stay put while the focus moves. A row left blank for that never hides
 * anything: while rows of the list are hidden, the pane is as tall as the focused option's
 * details, and the window of the list takes the rest.
 */
export function planMenu(needs: MenuNeeds): MenuPlan {
  const { rows } = needs;
  let free = Math.max(0, needs.height - 1);
  const take = (wanted: number): number => {
    const granted = Math.max(0, Math.min(wanted, free));
    free -= granted;
    return granted;
  };

  const titleFloor = take((needs.header ? 1 : 0) + 1);
  const header = needs.header && titleFloor === 2;
  let questionRows = titleFloor - (header ? 1 : 0);
  const noticeRows = take(needs.noticeRows);
  let hintRows = take(1);
  const filtered = needs.filtered === true;
  const scrolls = (rows > 1 || filtered) && take(1) === 1;

  let visible = 1;
  /** More rows in the window; the last one takes the indicator's line, which it makes useless. */
  const grow = (target: number): void => {
    if (!scrolls) return;
    const wanted = Math.min(target, rows);
    const cost = wanted === rows && !filtered ? wanted - visible - 1 : wanted - visible;
    if (cost <= free) {
      free -= Math.max(0, cost);
      visible = Math.max(visible, wanted);
    } else {
      visible += free;
      free = 0;
    }
  };

  // A question that can be read whole is, even if the list keeps only its focused row.
  if (questionRows > 0 && needs.questionRows - questionRows <= free) {
    questionRows += take(needs.questionRows - questionRows);
  }
  grow(MIN_LIST_ROWS);
  if (questionRows > 0) questionRows += take(needs.questionRows - questionRows);

  // The pane is a blank separator and at least one line, or nothing.
  let paneRows = 0;
  const growPane = (target: number): void => {
    if (target <= paneRows) return;
    if (paneRows === 0) {
      if (free < 2) return;
      free -= 1;
    }
    paneRows += take(target - paneRows);
  };
  growPane(Math.min(needs.detailRows, DETAIL_ROWS));
  hintRows += take(needs.hintRows - hintRows);
  const gap = questionRows > 0 && take(1) === 1;
  grow(rows);
  growPane(needs.detailRows);
  if (visible === rows && free > 0) growPane(needs.tallestDetails());

  return {
    header,
    questionRows,
    noticeRows,
    gap,
    visible,
    indicator: scrolls && (visible < rows || filtered),
    paneRows,
    hintRows,
  };
}
