// A small stand-in for the parts of the `vscode` API the tested modules use.
// The test bundle aliases `vscode` to this file.

type Listener<T> = (e: T) => unknown;

export interface Disposable {
  dispose(): void;
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  disposed = false;

  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

export class Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;

  private constructor(p: UriParts) {
    this.scheme = p.scheme;
    this.authority = p.authority ?? '';
    this.path = p.path ?? '';
    this.query = p.query ?? '';
    this.fragment = p.fragment ?? '';
  }

  static from(p: UriParts): Uri {
    return new Uri(p);
  }

  static file(fsPath: string): Uri {
    return new Uri({ scheme: 'file', path: fsPath.replace(/\\/g, '/') });
  }

  static parse(value: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(value);
    if (!m) {
      throw new Error(`fake vscode: cannot parse URI ${value}`);
    }
    return new Uri({ scheme: m[1], authority: m[2], path: decodeURIComponent(m[3]), query: m[4], fragment: m[5] });
  }

  get fsPath(): string {
    return this.path;
  }

  toString(): string {
    const auth = this.scheme === 'file' || this.authority !== '' ? `//${this.authority}` : '';
    const query = this.query !== '' ? `?${encodeURIComponent(this.query)}` : '';
    return `${this.scheme}:${auth}${encodeURI(this.path)}${query}`;
  }
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}
