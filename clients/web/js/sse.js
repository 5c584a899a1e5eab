// The live watch, through @tablero/client's `watch` (a Connect server stream): the seat token
// in a header, reconnection from the last version seen with its hash (afterHash) so that a
// log the server lost meanwhile (a Redis rollback) comes back as a reset, not a silent fork,
// and a stream silent for longer than the server's keep-alive (15 s) dropped and watched again.
import { Client } from './vendor/tablero-client.js';

// Watches never give up on a server that is away (a restart, a network change): they try
// again every 0.5-8 s, as long as the page is open.
const client = new Client({ baseUrl: location.origin, useBinaryFormat: false, retries: Number.MAX_SAFE_INTEGER,
  backoffMs: 500, maxBackoffMs: 8000, watchPatienceMs: Number.POSITIVE_INFINITY });

export class Watch {
  constructor(gameId, { token, afterVersion, afterHash, onEvent, onEnd, onState, onReset, silenceMs }) {
    this.gameId = gameId;
    this.token = token;
    this.version = afterVersion || 0;
    this.hash = afterHash || '';
    this.onEvent = onEvent;
    this.onReset = onReset || (() => {});
    this.onEnd = onEnd || (() => {});
    this.onState = onState || (() => {});
    this.stopped = false;
    // The server sends a keep-alive every 15 s: a stream silent for this long is dead without
    // saying so (a laptop that slept, a proxy that dropped the connection): reconnect.
    this.silenceMs = silenceMs || globalThis.TABLERO_SSE_SILENCE_MS || 45000;
    this.run();
  }

  stop() {
    this.stopped = true;
    if (this.ctrl) this.ctrl.abort();
  }

  // Connect again now (the browser is back online): a stream open across the outage may be
  // dead without saying so, and the wait before the next try may have grown to seconds.
  kick() {
    if (this.stopped) return;
    if (this.ctrl) this.ctrl.abort();
  }

  async run() {
    while (!this.stopped) {
      this.ctrl = new AbortController();
      try {
        const items = client.watch(this.gameId, {
          token: this.token, afterVersion: this.version, afterHash: this.hash, silenceMs: this.silenceMs,
          signal: this.ctrl.signal,
          onState: (state) => this.onState(state),
          onReset: (v) => {
            // The server's log no longer holds the events after v that we were sent: drop
            // them; the new history follows.
            this.version = Math.min(this.version, v);
            this.hash = '';
            this.onReset(v);
          },
        });
        for await (const item of items) {
          this.version = item.version;
          this.hash = item.hash;
          this.onEvent(item);
        }
        if (this.stopped) return;
        if (!this.ctrl.signal.aborted) {
          this.onEnd({ gameId: this.gameId, version: this.version });
          return;
        }
        // kick(): watch again at once from where we are.
      } catch (e) {
        if (this.stopped) return;
        this.onState('error', e.message || String(e));
        this.stopped = true;
        return;
      }
    }
  }
}
