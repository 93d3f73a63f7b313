"""Refuse an upload that is too large before its body is read.

Django reads a whole multipart body (a 50 MB file included) before any view or form can
look at it, so the size is checked here on the declared Content-Length, ahead of the CSRF
check (which reads the body). The answer is the page's 413 with the limit, in the page's
language; the body is never read.
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _


def max_upload_bytes() -> int:
    return int(getattr(settings, "PAISAI_MAX_UPLOAD_BYTES", 5 * 1024 * 1024))


class UploadSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("POST", "PUT", "PATCH") and request.content_type.startswith(
            "multipart/"
        ):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = max_upload_bytes()
            if length > limit + 64 * 1024:  # the form's other fields and the part headers
                message = _("The file is larger than %(limit)s MB; nothing was uploaded.") % {
                    "limit": limit // (1024 * 1024)
                }
                if request.path.startswith("/api/"):  # the API's error shape
                    from tournaments.validation import BadInput, refusal_response

                    response = refusal_response(request, BadInput(message, "file", status=413))
                else:
                    response = render(request, "errors/413.html", {"message": message}, status=413)
                response["Connection"] = "close"  # the unread body is not wanted
                return response
        return self.get_response(request)
