"""Error pages in both languages; API paths get JSON. No traceback ever reaches a user."""

from django.http import JsonResponse
from django.shortcuts import render


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def permission_denied(request, exception=None):
    if _wants_json(request):
        return JsonResponse(
            {"error": "You do not have permission for this.", "field": None}, status=403
        )
    message = str(exception) if exception is not None and exception.args else ""
    return render(request, "errors/403.html", {"message": message}, status=403)


def page_not_found(request, exception=None):
    if _wants_json(request):
        return JsonResponse({"error": "Not found.", "field": None}, status=404)
    return render(request, "errors/404.html", status=404)


def server_error(request):
    if _wants_json(request):
        return JsonResponse(
            {"error": "Internal error; it has been logged.", "field": None}, status=500
        )
    return render(request, "errors/500.html", status=500)
