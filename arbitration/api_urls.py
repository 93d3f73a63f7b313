"""Arbitration API, under /api/arbitration/tournaments/<slug>/."""

from django.urls import path

from .api import views

T = "tournaments/<slug:slug>/"

urlpatterns = [
    path(T + "incidents/", views.IncidentListView.as_view(), name="arbitration-incidents"),
    path(
        T + "incidents/categories/",
        views.IncidentCategoryView.as_view(),
        name="arbitration-incident-categories",
    ),
    path(
        T + "incidents/<int:pk>/", views.IncidentDetailView.as_view(), name="arbitration-incident"
    ),
    path(
        T + "incidents/<int:pk>/rulings/", views.IncidentRuleView.as_view(), name="arbitration-rule"
    ),
    path(T + "desk/", views.DeskView.as_view(), name="arbitration-desk"),
    path(T + "rulings/", views.RulingListView.as_view(), name="arbitration-rulings"),
    path(T + "rulings/<int:pk>/", views.RulingDetailView.as_view(), name="arbitration-ruling"),
    path(T + "rulings/<int:pk>/revoke/", views.RevokeView.as_view(), name="arbitration-revoke"),
    path(
        T + "rulings/<int:pk>/appeals/",
        views.AppealFileView.as_view(),
        name="arbitration-appeal-file",
    ),
    path(T + "appeals/", views.AppealListView.as_view(), name="arbitration-appeals"),
    path(T + "appeals/<int:pk>/", views.AppealDetailView.as_view(), name="arbitration-appeal"),
    path(T + "appeals/<int:pk>/votes/", views.VoteView.as_view(), name="arbitration-vote"),
    path(
        T + "appeals/<int:pk>/accept-late/",
        views.AcceptLateView.as_view(),
        name="arbitration-accept-late",
    ),
    path(T + "dashboard/chief/", views.ChiefDashboardView.as_view(), name="arbitration-chief"),
    path(
        T + "dashboard/committee/",
        views.CommitteeDashboardView.as_view(),
        name="arbitration-committee",
    ),
    path(
        T + "teams/<int:pk>/record/", views.TeamRecordView.as_view(), name="arbitration-team-record"
    ),
]
