"""URL patterns of the results area (merged into the tournaments namespace)."""

from django.urls import path

from .views import results, table

EVENT = "t/<slug:slug>/"

urlpatterns: list = [
    path(EVENT + "results/", results.RoundResultsView.as_view(), name="results"),
    path(EVENT + "results/match/<int:pk>/", results.MatchResultPage.as_view(), name="match-result"),
    path(
        EVENT + "results/match/<int:pk>/action/",
        results.MatchActionView.as_view(),
        name="match-action",
    ),
    path(
        EVENT + "results/round/<int:number>/close/",
        results.RoundCloseView.as_view(),
        name="round-close",
    ),
    path(EVENT + "table/<int:table>/", table.TableEntryView.as_view(), name="table-entry"),
    path(EVENT + "manage/tables/", table.TableLinksView.as_view(), name="table-links"),
    path(
        EVENT + "manage/tables/keys/", table.TableKeyActionView.as_view(), name="table-key-action"
    ),
    path("table/<str:key>/", table.TableKeyEntryView.as_view(), name="table-key-entry"),
]
