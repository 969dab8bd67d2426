/** One status line that rewrites itself on a terminal (and stays silent elsewhere). */
export class LiveLine {
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  set(text: string): void {
    if (!this.stream.isTTY) return;
    const width = (this.stream.columns || 80) - 1;
    this.stream.write(`\r\x1b[K${text.slice(0, width)}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
