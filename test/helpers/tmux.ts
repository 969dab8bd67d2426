import { execa } from 'execa';
import { vi } from 'vitest';

/** A real terminal: a detached tmux session running one command. */
export class TmuxSession {
  private constructor(readonly name: string) {}

  static async start(command: string, size = { columns: 120, rows: 40 }): Promise<TmuxSession> {
    const name = `bugbench-e2e-${process.pid}-${Date.now()}`;
    await execa('tmux', ['new-session', '-d', '-s', name, '-x', String(size.columns), '-y', String(size.rows), command]);
    return new TmuxSession(name);
  }

  async screen(): Promise<string> {
    const result = await execa('tmux', ['capture-pane', '-p', '-t', this.name], { reject: false });
    return result.stdout;
  }

  async keys(...keys: string[]): Promise<void> {
    await execa('tmux', ['send-keys', '-t', this.name, '--', ...keys]);
  }

  /** The terminal takes a new size, as when its window is resized. */
  async resize(columns: number, rows: number): Promise<void> {
    await execa('tmux', ['resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows)]);
  }

  async waitFor(pattern: RegExp, timeout = 30_000): Promise<string> {
    let screen = '';
    await vi.waitFor(
      async () => {
        screen = await this.screen();
        if (!pattern.test(screen)) throw new Error(`screen does not match ${pattern}:\n${screen}`);
      },
      { timeout, interval: 100 },
    );
    return screen;
  }

  /** From now on, everything the program writes to the terminal is appended to `file`, raw. */
  async record(file: string): Promise<void> {
    await execa('tmux', ['pipe-pane', '-o', '-t', this.name, `cat >> '${file}'`]);
  }

  async kill(): Promise<void> {
    await execa('tmux', ['kill-session', '-t', this.name], { reject: false });
  }
}
