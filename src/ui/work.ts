/**
 * The work the workbench has under way (an injection run, a check session,
 * solver attempts): each can be cancelled, and quitting cancels them all and
 * waits until their containers are gone.
 */
export interface Work {
  label: string;
  controller: AbortController;
  done: Promise<unknown>;
}

export class WorkSet {
  private readonly works = new Set<Work>();

  /** Tracks `done` until it settles; its controller cancels it. */
  add(label: string, controller: AbortController, done: Promise<unknown>): void {
    const work = { label, controller, done };
    this.works.add(work);
    void done.catch(() => undefined).finally(() => this.works.delete(work));
  }

  get running(): boolean {
    return this.works.size > 0;
  }

  labels(): string[] {
    return [...this.works].map((w) => w.label);
  }

  cancel(label: string): void {
    for (const work of this.works) if (work.label === label) work.controller.abort();
  }

  async cancelAll(): Promise<void> {
    const works = [...this.works];
    for (const work of works) work.controller.abort();
    await Promise.all(works.map((w) => w.done.catch(() => undefined)));
  }
}
