"""Refuse an upload that is too large before its body is read.

Django reads a whole multipart body (a 50 MB file included) before any view or form can
look at it, so the size is checked here on the declared Content-Length, ahead of the CSRF
check (which reads the body). The answer is the page's 413 with the limit (the API's:
``{error, field}`` JSON), in the page's language; the body is never read. The limit is
tournaments/upload_limit.py's, read from settings.
"""

from __future__ import annotations

from django.shortcuts import render

from tournaments.upload_limit import max_upload_body, too_large_message


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
            if length > max_upload_body():
                message = too_large_message()
                if request.path.startswith("/api/"):  # the API's error shape
                    from tournaments.errors import Code
                    from tournaments.validation import BadInput, refusal_response

                    error = BadInput(message, "file", Code.TOO_LARGE)
                    response = refusal_response(request, error)
                else:
                    context = {"message": message}
                    response = render(request, "errors/413.html", context, status=413)
                response["Connection"] = "close"  # the unread body is not wanted
                return response
        return self.get_response(request)


# A file named by its digest (the offline engine) holds nothing private: it may be kept.
KEPT = ("immutable",)


class PrivateNoStoreMiddleware:
    """Every answer to a logged-in user is ``Cache-Control: private, no-store``: no browser
    history, back button or proxy keeps a private page (the API-token page shows a new token
    once; a role page lists people's IDs). The user is read after the view, so an API request
    authenticated by its token counts too. A file named by its digest is left as it is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            given = response.get("Cache-Control", "")
            if not any(word in given for word in KEPT):
                response["Cache-Control"] = "private, no-store"
        return response
