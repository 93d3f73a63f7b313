"""URL patterns of the rounds area (merged into the tournaments namespace)."""

from django.urls import path

from .views import rounds, standings

MANAGE = "t/<slug:slug>/manage/"
ROUND = MANAGE + "rounds/<int:number>/"

urlpatterns: list = [
    path(MANAGE + "rounds/", rounds.RoundListView.as_view(), name="rounds"),
    path(MANAGE + "rounds/draft/", rounds.DraftView.as_view(), name="round-draft"),
    path(ROUND, rounds.RoundDetailView.as_view(), name="round"),
    path(ROUND + "swap/", rounds.SwapView.as_view(), name="round-swap"),
    path(ROUND + "publish/", rounds.PublishView.as_view(), name="round-publish"),
    path(ROUND + "start/", rounds.StartClockView.as_view(), name="round-start"),
    path(MANAGE + "standings/", standings.StandingsView.as_view(), name="manage-standings"),
    path(MANAGE + "standings/draw-lots/", standings.DrawLotsView.as_view(), name="draw-lots"),
]
