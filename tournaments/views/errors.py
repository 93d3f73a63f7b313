"""Error pages in both languages; API paths get the API's JSON error (``{"error", "field",
"code"}``). No traceback ever reaches a user."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.errors import Code


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def _json(message: str, code: Code) -> JsonResponse:
    return JsonResponse(
        {"error": message, "field": None, "code": code},
        status=code.status,
        json_dumps_params={"ensure_ascii": False},
    )


def bad_request(request, exception=None):
    """Django's own refusals (too many form fields, a suspicious header): no traceback, and
    JSON in the API's error shape on the API."""
    from tournaments.validation import BadInput, refusal_response

    return refusal_response(request, BadInput(_("The request was refused as malformed.")))


def permission_denied(request, exception=None):
    if _wants_json(request):
        return _json(_("You do not have permission for this."), Code.FORBIDDEN)
    message = str(exception) if exception is not None and exception.args else ""
    return render(request, "errors/403.html", {"message": message}, status=403)


def page_not_found(request, exception=None):
    if _wants_json(request):
        return _json(_("Not found."), Code.NOT_FOUND)
    message = getattr(exception, "words", "")  # a service's refusal (views.mixins)
    return render(request, "errors/404.html", {"message": message}, status=404)


def server_error(request):
    if _wants_json(request):
        return _json(_("Internal error; it has been logged."), Code.SERVER_ERROR)
    return render(request, "errors/500.html", status=500)
