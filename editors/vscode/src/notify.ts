// The one error message shown when the server binary is missing. It takes
// the parts of the vscode API it uses as parameters, so tests can fake them.

/** The button that opens the `gddls.path` setting. */
export const OPEN_SETTINGS = 'Open Settings';

/** The part of `vscode.window` the notifier uses. */
export interface ErrorWindow {
  showErrorMessage(message: string, ...items: string[]): Thenable<string | undefined>;
}

/** The part of `vscode.commands` the notifier uses. */
export interface CommandRunner {
  executeCommand(command: string, ...args: unknown[]): Thenable<unknown>;
}

/**
 * Shows the missing-binary message at most once until `reset` is called, so
 * that a missing binary produces one message, not one per opened document
 * or per retry.
 */
export class MissingBinaryNotifier {
  private shown = false;

  constructor(
    private readonly window: ErrorWindow,
    private readonly commands: CommandRunner,
  ) {}

  /** Whether the message has been shown since the last reset. */
  get hasShown(): boolean {
    return this.shown;
  }

  /** Allows the next `notify` to show the message again. */
  reset(): void {
    this.shown = false;
  }

  /**
   * Shows message with an "Open Settings" button, unless it was shown
   * already. Choosing the button opens the settings UI at `gddls.path`.
   */
  async notify(message: string): Promise<void> {
    if (this.shown) {
      return;
    }
    this.shown = true;
    const choice = await this.window.showErrorMessage(message, OPEN_SETTINGS);
    if (choice === OPEN_SETTINGS) {
      await this.commands.executeCommand('workbench.action.openSettings', 'gddls.path');
    }
  }
}
