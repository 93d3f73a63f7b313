"""API URL patterns of the public area."""

from django.urls import path

from . import public

urlpatterns: list = [
    path(
        "tournaments/<slug:slug>/public/standings/",
        public.PublicStandingsView.as_view(),
        name="public-standings",
    ),
    path(
        "tournaments/<slug:slug>/public/pairings/",
        public.PublicPairingsView.as_view(),
        name="public-pairings",
    ),
    path(
        "tournaments/<slug:slug>/public/find-table/",
        public.PublicFindTableView.as_view(),
        name="public-find-table",
    ),
    path(
        "tournaments/<slug:slug>/public/clock/",
        public.PublicClockView.as_view(),
        name="public-clock",
    ),
]
