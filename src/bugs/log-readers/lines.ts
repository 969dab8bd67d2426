/**
 * Cuts streamed text into lines for the log readers, holding at most one
 * line's worth of text: a line longer than the cap is cut there (the rest of
 * it is dropped), so a log of any size reads in bounded memory.
 */
export const MAX_LINE_CHARS = 16 * 1024;

/** Colour and cursor escapes, which `--color=yes` puts around pytest's words. */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

export function cleanLine(text: string): string {
  return text.replace(ANSI, '').replace(/\r$/, '');
}

export class LineSplitter {
  private partial = '';
  private dropping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxChars = MAX_LINE_CHARS,
  ) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf('\n', start);
      if (end < 0) break;
      this.take(chunk.slice(start, end));
      this.emit();
      start = end + 1;
    }
    this.take(chunk.slice(start));
  }

  /** Emits the last line if the text did not end with a newline. */
  end(): void {
    if (this.partial !== '' || this.dropping) this.emit();
  }

  private take(piece: string): void {
    if (this.dropping || piece === '') return;
    const room = this.maxChars - this.partial.length;
    if (piece.length > room) {
      this.partial += piece.slice(0, room);
      this.dropping = true;
    } else {
      this.partial += piece;
    }
  }

  private emit(): void {
    this.onLine(cleanLine(this.partial));
    this.partial = '';
    this.dropping = false;
  }
}
