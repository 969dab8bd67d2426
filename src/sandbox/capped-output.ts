/**
 * Collects a stream's bytes up to a cap. Past the cap it keeps the head and the
 * tail (test runners print their summary last) and marks what it dropped.
 */
export class CappedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(readonly maxBytes: number) {
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
  }

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.headLimit) {
      const room = this.headLimit - this.headBytes;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  /** The kept text; when bytes were dropped a marker line says how many. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    if (!this.truncated) return head + tail.toString('utf8');
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const dropped = this.total - this.headBytes - tail.length;
    return `${head}\n[... bugbench: ${dropped} bytes of output truncated ...]\n${tail.toString('utf8')}`;
  }
}
