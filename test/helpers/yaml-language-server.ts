/**
 * A small LSP client for the real yaml-language-server (node_modules), over stdio: Content-Length
 * framed JSON-RPC. Enough to open a document and read the diagnostics the server publishes for it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './repos.js';

const BIN = path.join(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  severity?: number;
  source?: string;
}

/** No network: the schema store and the Kubernetes CRD store stay off; only the modeline's schema counts. */
const SETTINGS = {
  yaml: {
    validate: true,
    hover: true,
    completion: true,
    schemas: {},
    schemaStore: { enable: false },
    kubernetesCRDStore: { enable: false },
  },
};

export class YamlLanguageServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly diagnostics = new Map<string, Diagnostic[]>();
  private readonly waiting = new Map<string, Array<(diagnostics: Diagnostic[]) => void>>();
  stderr = '';

  private constructor() {
    this.child = spawn(process.execPath, [BIN, '--stdio'], { stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => void (this.stderr += String(chunk)));
    this.child.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`yaml-language-server exited (${code}): ${this.stderr}`));
      this.pending.clear();
    });
  }

  static async start(): Promise<YamlLanguageServer> {
    const server = new YamlLanguageServer();
    await server.request('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: {} },
      },
    });
    server.notify('initialized', {});
    server.notify('workspace/didChangeConfiguration', { settings: SETTINGS });
    return server;
  }

  /** Opens a YAML document and resolves with the first diagnostics published for it. */
  open(uri: string, text: string, timeoutMs = 30_000): Promise<Diagnostic[]> {
    const published = new Promise<Diagnostic[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} in ${timeoutMs} ms; server stderr: ${this.stderr}`)),
        timeoutMs,
      );
      this.waiting.set(uri, [...(this.waiting.get(uri) ?? []), (diagnostics) => (clearTimeout(timer), resolve(diagnostics))]);
    });
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return published;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    try {
      await Promise.race([
        this.request('shutdown', null).then(() => this.notify('exit', null)),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
    } finally {
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(kill);
    }
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  private send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, end).toString('ascii'))?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: { id?: number; method?: string; params?: any; result?: unknown; error?: { message: string } }): void {
    if (message.method === undefined) {
      const waiter = this.pending.get(message.id!);
      this.pending.delete(message.id!);
      if (message.error !== undefined) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else if (message.id !== undefined) {
      // A request of the server's: its settings, by section, or a plain acknowledgement.
      const result =
        message.method === 'workspace/configuration'
          ? (message.params.items as Array<{ section?: string }>).map(({ section }) =>
              section === undefined ? SETTINGS : section.split('.').reduce<any>((value, key) => value?.[key] ?? null, SETTINGS),
            )
          : null;
      this.send({ jsonrpc: '2.0', id: message.id, result });
    } else if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: Diagnostic[] };
      this.diagnostics.set(uri, diagnostics);
      const waiters = this.waiting.get(uri) ?? [];
      this.waiting.delete(uri);
      for (const waiter of waiters) waiter(diagnostics);
    }
  }
}
