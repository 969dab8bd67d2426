/**
 * The mark of the focused row — the same on every screen, and a character
 * rather than a colour: inverse video and colours are not drawn without
 * colour (NO_COLOR, a terminal that has none), the mark always is.
 */
export const FOCUS_MARK = '›';

/** The mark for a row that has the focus, or a space as wide for one that has not. */
export function focusMark(focused: boolean): string {
  return focused ? FOCUS_MARK : ' ';
}
