"""URL patterns of the public area and exports (merged into the tournaments namespace)."""

from django.urls import path

from .views import brackets, exports, public_pages, units

urlpatterns: list = [
    path("t/<slug:slug>/pairings/", public_pages.PairingsPage.as_view(), name="public-pairings"),
    path("t/<slug:slug>/standings/", public_pages.StandingsPage.as_view(), name="public-standings"),
    path(
        "t/<slug:slug>/stages/<int:pk>/bracket/",
        brackets.BracketPage.as_view(),
        name="public-bracket",
    ),
    path("t/<slug:slug>/units/", units.UnitStandingsPage.as_view(), name="public-units"),
    path("t/<slug:slug>/teams/<int:pk>/", public_pages.TeamPage.as_view(), name="public-team"),
    path("t/<slug:slug>/projector/", public_pages.ProjectorPage.as_view(), name="projector"),
    path("t/<slug:slug>/find/", public_pages.FindTablePage.as_view(), name="find-table"),
    path("language/<str:code>/", public_pages.switch_language, name="language"),
    path("t/<slug:slug>/export/<slug:identifier>/", exports.DownloadView.as_view(), name="export"),
    path("t/<slug:slug>/manage/exports/", exports.ExportsPage.as_view(), name="exports"),
    path("t/<slug:slug>/manage/exports/jobs/", exports.JobStartView.as_view(), name="export-start"),
    path(
        "t/<slug:slug>/manage/exports/jobs/<int:pk>/",
        exports.JobPage.as_view(),
        name="job",
    ),
    path(
        "t/<slug:slug>/manage/exports/jobs/<int:pk>/status/",
        exports.JobStatusView.as_view(),
        name="job-status",
    ),
    path(
        "t/<slug:slug>/manage/exports/jobs/<int:pk>/file/",
        exports.JobFileView.as_view(),
        name="job-file",
    ),
    path(
        "t/<slug:slug>/manage/exports/jobs/<int:pk>/retry/",
        exports.JobRetryView.as_view(),
        name="job-retry",
    ),
]
