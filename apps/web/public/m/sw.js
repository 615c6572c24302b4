/* global self */
// The member app's service worker (docs/members.md "Installing"): it makes the app installable and
// keeps nothing — every request goes to the network, so a member always sees today's data.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => e.respondWith(fetch(e.request)));
