"""API URL patterns of the rounds area."""

from django.urls import path

from . import rounds as views

EVENT = "tournaments/<slug:slug>/"
ROUND = EVENT + "rounds/<int:number>/"

urlpatterns: list = [
    path(EVENT + "rounds/", views.RoundListView.as_view(), name="round-list"),
    path(EVENT + "rounds/draft/", views.DraftView.as_view(), name="round-draft"),
    path(ROUND, views.RoundDetailView.as_view(), name="round-detail"),
    path(ROUND + "swap/", views.SwapView.as_view(), name="round-swap"),
    path(ROUND + "publish/", views.PublishView.as_view(), name="round-publish"),
    path(ROUND + "start/", views.StartClockView.as_view(), name="round-start"),
    path(EVENT + "standings/", views.StandingsView.as_view(), name="standings-api"),
]
