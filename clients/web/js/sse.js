// Server-Sent Events over fetch(): any event names (old servers name each message after the
// game event's type, newer ones send game events as default messages), the seat token in a
// header, and reconnection from the last version seen, with its hash (afterHash) so that a
// log the server lost meanwhile (a Redis rollback) comes back as a reset, not a silent fork.
export class Watch {
  constructor(gameId, { token, afterVersion, afterHash, onEvent, onEnd, onState, onReset, silenceMs }) {
    this.url = `/v1/games/${encodeURIComponent(gameId)}/watch`;
    this.token = token;
    this.version = afterVersion || 0;
    this.hashes = new Map(); // version -> hash of the events received (the last 64)
    if (afterHash) this.hashes.set(this.version, afterHash);
    this.onEvent = onEvent;
    this.onReset = onReset || (() => {});
    this.onEnd = onEnd || (() => {});
    this.onState = onState || (() => {});
    this.stopped = false;
    this.delay = 500;
    // The server sends a keep-alive comment every 15 s: a stream silent for this long is dead
    // without saying so (a laptop that slept, a proxy that dropped the connection): reconnect.
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
    this.delay = 0;
    if (this.ctrl) this.ctrl.abort();
    if (this.wake) this.wake();
  }

  async run() {
    while (!this.stopped) {
      let finished = false;
      this.ctrl = new AbortController();
      try {
        const headers = { Accept: 'text/event-stream' };
        if (this.token) headers.Authorization = `Bearer ${this.token}`;
        if (this.version) headers['Last-Event-ID'] = String(this.version);
        const hash = this.hashes.get(this.version);
        const q = `afterVersion=${this.version}${hash ? `&afterHash=${encodeURIComponent(hash)}` : ''}`;
        const r = await fetch(`${this.url}?${q}`, { headers, signal: this.ctrl.signal });
        if (!r.ok) {
          let msg = `${r.status}`;
          try {
            msg = (await r.json()).error.message;
          } catch { /* not JSON */ }
          this.onState('error', msg);
          if (r.status >= 400 && r.status < 500 && r.status !== 429) return;
        } else {
          this.onState('live');
          this.delay = 500;
          finished = await this.read(r.body.getReader());
        }
      } catch (e) {
        if (this.stopped) return;
        this.onState('reconnecting', e.message);
      }
      if (finished || this.stopped) return;
      this.onState('reconnecting');
      await new Promise((res) => {
        const t = setTimeout(res, this.delay);
        this.wake = () => { clearTimeout(t); res(); };
      });
      this.wake = null;
      this.delay = Math.min(Math.max(this.delay * 2, 500), 8000);
    }
  }

  // Returns true when the server said the game is over (event: end).
  async read(reader) {
    let heard = Date.now();
    const ctrl = this.ctrl;
    const watchdog = setInterval(() => {
      if (Date.now() - heard > this.silenceMs) ctrl.abort(); // run() reconnects from this.version
    }, Math.min(5000, this.silenceMs / 2));
    try {
      return await this.readAll(reader, () => { heard = Date.now(); });
    } finally {
      clearInterval(watchdog);
    }
  }

  async readAll(reader, heard) {
    const dec = new TextDecoder();
    let buf = '';
    let msg = { event: '', data: [], id: null };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      heard();
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf[nl] === '\r' && buf[nl + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (msg.data.length || msg.event) {
            if (this.dispatch(msg)) return true;
          }
          msg = { event: '', data: [], id: null };
          continue;
        }
        if (line.startsWith(':')) continue; // keep-alive
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const val = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'data') msg.data.push(val);
        else if (field === 'event') msg.event = val;
        else if (field === 'id') msg.id = val;
      }
    }
  }

  dispatch(msg) {
    let data = null;
    try {
      data = JSON.parse(msg.data.join('\n') || 'null');
    } catch {
      data = null;
    }
    // Control messages are `tablero-end`, `tablero-reset`, `tablero-shutdown`, `tablero-error`
    // (older servers: `end`, `reset`, `shutdown`, `error`; newer ones send `end`, `reset` and
    // `shutdown` before their tablero-* name, so the first of the two is acted on).
    const kind = msg.event.startsWith('tablero-') ? msg.event.slice('tablero-'.length) : msg.event;
    const copy = this.lastLegacy === `${kind}\n${msg.data.join('\n')}` && msg.event === `tablero-${kind}`;
    this.lastLegacy = msg.event === kind ? `${kind}\n${msg.data.join('\n')}` : null;
    if (copy) return false; // the same message just acted on under its former name
    if (kind === 'end') {
      this.onEnd(data);
      return true;
    }
    if (kind === 'shutdown') return false; // the server is going away: reconnect elsewhere
    if (kind === 'reset') {
      // The server's log no longer holds the events after data.version that we were sent:
      // drop them; the new history follows.
      const v = data && typeof data.version === 'number' ? data.version : 0;
      for (const k of [...this.hashes.keys()]) if (k > v) this.hashes.delete(k);
      this.version = Math.min(this.version, v);
      this.onReset(v);
      return false;
    }
    if (kind === 'error') {
      this.onState('error', (data && data.error && data.error.message) || 'stream refused');
      this.stopped = true;
      return true;
    }
    if (data && typeof data.version === 'number' && data.event) {
      if (data.version > this.version) {
        this.version = data.version;
        if (data.hash) {
          this.hashes.set(data.version, data.hash);
          if (this.hashes.size > 64) this.hashes.delete(this.hashes.keys().next().value);
        }
        this.onEvent(data);
      }
    }
    return false;
  }
}
