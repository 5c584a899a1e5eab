// Tablero's service worker: shows the server's Web Push messages ("Your turn in …") and opens
// the game's table when one is clicked. Nothing is shown while a window of this page already
// shows that game and has the focus (the server also skips seats watching live).
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch {
    msg = { title: event.data ? event.data.text() : 'Tablero' };
  }
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const showing = msg.gameId && windows.some((w) => w.focused && w.url.includes(`/g/${msg.gameId}`));
    if (showing) return;
    await self.registration.showNotification(msg.title || 'Tablero', {
      body: msg.gameId ? `Game ${msg.gameId}: it is your move.` : '',
      tag: msg.gameId || 'tablero',
      data: { url: msg.url || '/' },
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const w of windows) {
      if (w.url === url && 'focus' in w) return w.focus();
    }
    return self.clients.openWindow(url);
  })());
});
