"""What a table phone keeps for use offline: the service worker (served at the site's root,
``/sw.js``, so that it may keep the table pages) and the rules engine's zip for Pyodide.
Both are built once per process (tournaments.services.offline), never per request."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.services import offline


class ServiceWorkerView(View):
    def get(self, request):
        version = offline.version()
        engine_url = reverse("tournaments:offline-engine", args=[offline.engine_bundle().name])
        body = render_to_string(
            "tournaments/offline/sw.js",
            {
                "version": version,
                "kept": json.dumps(offline.kept_files(version)),
                "engine": json.dumps(offline.engine_files(engine_url)),
            },
        )
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
        # a phone asks for the worker anew on each visit: a new deployment is seen at once
        response["Cache-Control"] = "no-cache"
        return response


class EngineZipView(View):
    def get(self, request, name):
        bundle = offline.engine_bundle()
        if name != bundle.name:
            raise Http404(_("No such engine version."))
        response = HttpResponse(bundle.data, content_type="application/zip")
        response["Cache-Control"] = "public, max-age=31536000, immutable"  # named by its digest
        return response
