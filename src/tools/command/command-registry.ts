/** The commands an executor is running, so `abortAll` can stop every one of them. */
export class CommandRegistry {
  private readonly running = new Set<{ stop(): Promise<void> }>();

  track<T extends { stop(): Promise<void>; done: Promise<unknown> }>(command: T): T {
    this.running.add(command);
    void command.done.finally(() => this.running.delete(command));
    return command;
  }

  get size(): number {
    return this.running.size;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((command) => command.stop()));
  }
}
