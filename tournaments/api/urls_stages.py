"""API URL patterns of the stages area."""

from django.urls import path

from . import stages as views

EVENT = "tournaments/<slug:slug>/"
STAGE = EVENT + "stages/<int:pk>/"

urlpatterns: list = [
    path(EVENT + "stages/", views.StageListView.as_view(), name="stage-list"),
    path(STAGE, views.StageDetailView.as_view(), name="stage-detail"),
    path(STAGE + "sections/", views.SectionCreateView.as_view(), name="stage-sections"),
    path(
        STAGE + "sections/<int:section>/teams/",
        views.SectionTeamsView.as_view(),
        name="section-teams",
    ),
    path(STAGE + "split/", views.SplitView.as_view(), name="stage-split"),
    path(STAGE + "draw/", views.DrawView.as_view(), name="stage-draw"),
    path(STAGE + "standings/", views.StageStandingsView.as_view(), name="stage-standings"),
    path(EVENT + "ranking/", views.RankingView.as_view(), name="event-ranking"),
]
