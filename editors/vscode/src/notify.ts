// The one error message shown when the server binary is missing. It takes
// the parts of the vscode API it uses as parameters, so tests can fake them.

import { INSTALL_URL } from './binary';

/** The button that opens the `gddls.path` setting. */
export const OPEN_SETTINGS = 'Open Settings';

/** The button that opens the install instructions in the browser. */
export const INSTALL_INSTRUCTIONS = 'Install Instructions';

/** The button, offered when `go` is on PATH, that runs `go install`. */
export const INSTALL_WITH_GO = 'Install with Go';

/** The part of `vscode.window` the notifier uses. */
export interface ErrorWindow {
  showErrorMessage(message: string, ...items: string[]): Thenable<string | undefined>;
}

/** The part of `vscode.commands` the notifier uses. */
export interface CommandRunner {
  executeCommand(command: string, ...args: unknown[]): Thenable<unknown>;
}

/** What the buttons do besides opening the settings. */
export interface MissingBinaryActions {
  /** Opens url in the browser (`vscode.env.openExternal`). */
  openUrl(url: string): Thenable<unknown>;
  /** Installs the server with Go and starts it. */
  installWithGo(): Thenable<unknown>;
}

/** What the message is about. */
export interface MissingBinaryContext {
  /** The binary named in `gddls.path` is missing (the setting is wrong). */
  configured: boolean;
  /** `go` is on PATH, so Install with Go can work. */
  goAvailable: boolean;
}

/** The buttons of the missing-binary message, in order. */
export function missingBinaryButtons(ctx: MissingBinaryContext): string[] {
  if (ctx.configured) {
    return [OPEN_SETTINGS, INSTALL_INSTRUCTIONS];
  }
  return ctx.goAvailable ? [INSTALL_INSTRUCTIONS, INSTALL_WITH_GO, OPEN_SETTINGS] : [INSTALL_INSTRUCTIONS, OPEN_SETTINGS];
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
    private readonly actions: MissingBinaryActions,
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
   * Shows message with the buttons of missingBinaryButtons, unless it was
   * shown already, and does what the chosen button says: open the settings
   * UI at `gddls.path`, open the install instructions, or install with Go.
   */
  async notify(message: string, ctx: MissingBinaryContext): Promise<void> {
    if (this.shown) {
      return;
    }
    this.shown = true;
    const choice = await this.window.showErrorMessage(message, ...missingBinaryButtons(ctx));
    switch (choice) {
      case OPEN_SETTINGS:
        await this.commands.executeCommand('workbench.action.openSettings', 'gddls.path');
        break;
      case INSTALL_INSTRUCTIONS:
        await this.actions.openUrl(INSTALL_URL);
        break;
      case INSTALL_WITH_GO:
        await this.actions.installWithGo();
        break;
    }
  }
}
