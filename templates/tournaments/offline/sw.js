/* paisai's service worker (tournaments/views/offline.py serves it at /sw.js): keeps the table
   page, the rules desk and their files so that they open with no network.

   - Kept files (the pages' scripts and stylesheet, the rules engine's zip, Pyodide) are named
     by their version ({% templatetag openvariable %} version {% templatetag closevariable %} below; ?v= on the page files, the
     digest in the engine's name, Pyodide's version in its folder), answered from the cache.
     The pages' own files (KEPT) are kept at install; the engine's (ENGINE, ~13 MB) as the
     phone's engine worker fetches them through this worker (the page starts it once this
     worker controls the page), so that each is downloaded once. A new deployment is a new version: new URLs, a new cache, the old one
     dropped once this worker takes over, so a phone never mixes two versions' files.
   - The table pages and the rules desk: always asked of the network first; the last copy
     answered online is kept and shown when the network is gone (the deals themselves are kept
     in the page's localStorage).
   - Everything else (the API, other pages) goes to the network untouched. */
"use strict";
const VERSION = "{{ version|escapejs }}";
const FILES = "paisai-files-" + VERSION;
const PAGES = "paisai-pages-" + VERSION;
// the engine's start-up snapshot, made and kept by the phone itself (static/js/engine_worker.mjs)
const SNAPSHOTS = "paisai-snapshot-" + VERSION;
const KEPT = {{ kept|safe }};
const ENGINE = {{ engine|safe }};
const OFFLINE_PAGES = [
  /^\/t\/[^/]+\/table\/\d+\/$/,
  /^\/table\/[^/]+\/$/,
  /^\/arbitration\/t\/[^/]+\/desk\/$/
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) {
    return cache.addAll(KEPT);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("paisai-") === 0 && name !== FILES && name !== PAGES && name !== SNAPSHOTS;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// the network first; the last copy it answered when it cannot answer
function keptPage(request, cacheName) {
  const name = cacheName || PAGES;
  return fetch(request).then(function (response) {
    if (response.ok) {
      const copy = response.clone();
      caches.open(name).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }, function () {
    return caches.open(name).then(function (cache) { return cache.match(request, {ignoreVary: true}); })
      .then(function (kept) { return kept || Response.error(); });
  });
}

// the cache first (a file named by its version never changes)
function keptFile(request) {
  return caches.open(FILES).then(function (cache) {
    return cache.match(request, {ignoreVary: true}).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && OFFLINE_PAGES.some(function (p) { return p.test(url.pathname); })) {
    event.respondWith(keptPage(request));
    return;
  }
  const path = url.pathname + url.search;
  if (KEPT.indexOf(path) !== -1 || ENGINE.indexOf(path) !== -1 ||
      url.pathname.indexOf("/static/vendor/pyodide-") === 0) {
    event.respondWith(keptFile(request));  // named by its version: the cache first
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(keptPage(request, FILES));  // the site's other files: the network first
  }
});
