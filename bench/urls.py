"""The bench's URLconf: paisai's, plus the floor view (mounted here only, never in paisai)."""

from django.urls import path

from config.urls import urlpatterns as paisai_urlpatterns

from .floor import FloorView

urlpatterns = [
    path("bench/floor/<int:match_id>/", FloorView.as_view(), name="bench-floor"),
    *paisai_urlpatterns,
]
