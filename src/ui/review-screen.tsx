/** The Review screen: bugs filtered by status, image, strategy and order; the selected one's detail; accept and reject. */
import { Box, Text } from 'ink';
import { focusMark } from './focus.js';
import { clip } from './line-fit.js';
import { bugRow, detailLines, STATUS_COLOR, type StyledLine } from './review-lines.js';
import { DETAIL_VIEWS } from './review-state.js';
import type { ReviewModel } from './use-review.js';

export function reviewLayout(rows: number, bugCount: number) {
  // title, list frame label, detail title, message line
  const fixed = 4;
  const listRows = Math.max(1, Math.min(bugCount, Math.floor((rows - fixed) / 3)));
  const detailRows = Math.max(3, rows - fixed - listRows);
  return { listRows, detailRows };
}

export function Line({ line, width }: { line: StyledLine; width: number }) {
  return (
    <Text color={line.color} bold={line.bold} dimColor={line.dim} inverse={line.inverse} wrap="truncate-end">
      {clip(line.text, width) || ' '}
    </Text>
  );
}

export function ReviewScreen({ model, rows, columns }: { model: ReviewModel; rows: number; columns: number }) {
  const { state, bugs, selected, details, log } = model;
  const { listRows, detailRows } = reviewLayout(rows, bugs.length);
  const at = Math.max(0, bugs.findIndex((b) => b.id === selected?.id));
  const first = Math.min(Math.max(0, at - Math.floor(listRows / 2)), Math.max(0, bugs.length - listRows));
  const visible = bugs.slice(first, first + listRows);
  const idWidth = Math.max(0, ...visible.map((b) => b.id.length));
  const f = state.filter;
  const filters = `status ${f.status ?? 'all'} · image ${f.image ?? 'all'} · strategy ${f.strategy ?? 'all'} · order ${f.order ?? 'all'}`;

  const following = selected?.id === state.selectedId;
  const lines: StyledLine[] = log
    ? [{ text: `── log of ${state.log!.title} (esc closes)`, bold: true }, ...log.map((text) => ({ text }))]
    : details
      ? detailLines(details, state.view, following ? state.checkCursor : 0)
      : [{ text: bugs.length === 0 ? '' : 'reading the bug…', dim: true }];
  // A bug shown in place of one that left the list is shown from the top (it is selected once this frame is drawn).
  const scroll = following ? state.scroll : 0;
  const shown = lines.slice(scroll, scroll + detailRows);
  const views = DETAIL_VIEWS.map((v) => (v === state.view ? `[${v}]` : v)).join(' ');
  const more = lines.length > detailRows ? ` ${scroll + 1}–${Math.min(lines.length, scroll + detailRows)}/${lines.length}` : '';

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{bugs.length} bug(s)</Text>
        <Text dimColor> {filters}</Text>
      </Text>
      {visible.length === 0 ? (
        <Text dimColor wrap="truncate-end">
          {model.all.length === 0 ? 'no bugs yet: run an injection (2) or `bugbench import` one' : `no bug matches these filters (${model.all.length} in all; f i t o change them)`}
        </Text>
      ) : null}
      {visible.map((bug) => {
        const on = bug.id === selected?.id;
        return (
          <Text key={bug.id} inverse={on && state.focus === 'list'} bold={on} color={on ? undefined : STATUS_COLOR[bug.status]} wrap="truncate-end">
            {focusMark(on)}
            {bugRow(bug, columns - 2, idWidth)}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {state.focus === 'detail' ? '▸ ' : '  '}
        {views}
        {more}
      </Text>
      {shown.map((line, i) => (
        <Line key={i} line={line} width={columns} />
      ))}
      {state.rejecting !== null ? (
        <Text wrap="truncate-end">
          <Text color="magenta">reject {selected?.id}, reason: </Text>
          {state.rejecting}
          <Text inverse> </Text>
        </Text>
      ) : state.message ? (
        <Text color={state.message.error ? 'red' : 'green'} wrap="truncate-end">
          {state.message.text}
        </Text>
      ) : null}
    </Box>
  );
}
