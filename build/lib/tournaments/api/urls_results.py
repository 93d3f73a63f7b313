"""API URL patterns of the results area."""

from django.urls import path

from . import results as views

MATCH = "tournaments/<slug:slug>/matches/<int:match_id>/"
ROUND = "tournaments/<slug:slug>/rounds/<int:number>/"

urlpatterns: list = [
    path(f"{MATCH}result/", views.MatchResultView.as_view(), name="match-result"),
    path(f"{MATCH}preview/", views.PreviewView.as_view(), name="match-preview"),
    path(f"{MATCH}confirm/", views.ConfirmView.as_view(), name="match-confirm"),
    path(f"{MATCH}correct/", views.CorrectView.as_view(), name="match-correct"),
    path(f"{MATCH}dispute/", views.DisputeView.as_view(), name="match-dispute"),
    path(f"{MATCH}captain-sign/", views.CaptainSignView.as_view(), name="match-captain-sign"),
    path(
        f"{MATCH}disputes/<int:pk>/decide/", views.DecideView.as_view(), name="match-dispute-decide"
    ),
    path(f"{MATCH}void/", views.VoidView.as_view(), name="match-void"),
    path(f"{MATCH}forfeit/", views.ForfeitView.as_view(), name="match-forfeit"),
    path(f"{MATCH}restore/", views.RestoreView.as_view(), name="match-restore"),
    path(f"{ROUND}finalise/", views.FinaliseView.as_view(), name="round-finalise"),
    path(f"{ROUND}reopen/", views.ReopenView.as_view(), name="round-reopen"),
    path(
        "tournaments/<slug:slug>/table-keys/", views.TableKeyListView.as_view(), name="table-keys"
    ),
    path(
        "tournaments/<slug:slug>/table-keys/<int:pk>/revoke/",
        views.TableKeyRevokeView.as_view(),
        name="table-key-revoke",
    ),
    path("table/<str:key>/", views.TableMatchView.as_view(), name="table-match"),
]
