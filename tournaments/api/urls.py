from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from . import (
    event_file,
    registration_import,
    urls_public,
    urls_results,
    urls_rounds,
    urls_stages,
    views,
)

router = DefaultRouter()
router.register("tournaments", views.EventViewSet, basename="event")

scoped = SimpleRouter()
scoped.register("teams", views.TeamViewSet, basename="team")
scoped.register("roles", views.RoleViewSet, basename="role")

# The results and public routes come first: they are the most requested (every table's result,
# every phone at a round's publication), and the resolver tries routes in order.
urlpatterns = [
    *urls_results.urlpatterns,
    *urls_public.urlpatterns,
    path("", include(router.urls)),
    path("tournaments/<slug:slug>/", include(scoped.urls)),
    path(
        "tournaments/<slug:slug>/teams-import/",
        registration_import.TeamImportView.as_view(),
        name="team-import",
    ),
    path(
        "tournaments/<slug:slug>/event-file/",
        event_file.EventFileView.as_view(),
        name="event-file",
    ),
    path("tournaments/<slug:slug>/players/", views.PlayerListView.as_view(), name="player-list"),
    *urls_rounds.urlpatterns,
    *urls_stages.urlpatterns,
]
