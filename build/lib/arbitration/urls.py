"""Arbitration pages (namespace "arbitration", under /arbitration/)."""

from django.urls import path

from .views import appeals, dashboards, desk, incidents, rulings

app_name = "arbitration"

T = "t/<slug:slug>/"

urlpatterns = [
    path(T, dashboards.IndexView.as_view(), name="index"),
    path(T + "chief/", dashboards.ChiefDashboardView.as_view(), name="chief"),
    path(T + "committee/", dashboards.CommitteeDashboardView.as_view(), name="committee"),
    path(T + "teams/<int:pk>/", dashboards.TeamRecordView.as_view(), name="team-record"),
    path(T + "desk/", desk.DeskView.as_view(), name="desk"),
    path(T + "incidents/new/", incidents.IncidentCreateView.as_view(), name="incident-add"),
    path(T + "incidents/<int:pk>/", incidents.IncidentView.as_view(), name="incident"),
    path(T + "rulings/<int:pk>/", rulings.RulingView.as_view(), name="ruling"),
    path(T + "rulings/<int:pk>/revoke/", rulings.RevokeView.as_view(), name="revoke"),
    path(T + "rulings/<int:pk>/appeal/", rulings.AppealCreateView.as_view(), name="appeal-add"),
    path(T + "appeals/<int:pk>/", appeals.AppealView.as_view(), name="appeal"),
    path(T + "appeals/<int:pk>/accept/", appeals.AcceptLateView.as_view(), name="accept-late"),
]
